import { Inject, Injectable } from '@nestjs/common';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { SamlIdentity } from '../saml-identity.js';
import { signedMetadata } from './saml-metadata.js';

/** The signed metadata, made once per process: its inputs change only with the configuration. */
@Injectable()
export class SamlMetadataService {
  private document?: string;

  constructor(
    private readonly identity: SamlIdentity,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
  ) {}

  metadata(): string {
    this.document ??= signedMetadata({
      entityId: this.identity.entityId,
      ssoUrl: this.identity.ssoUrl,
      sloUrl: this.identity.sloUrl,
      displayName: new URL(this.server.publicBaseUrl).hostname,
      key: this.identity.signingKey(),
    });
    return this.document;
  }
}
