import { Inject, Injectable } from '@nestjs/common';
import { samlConfig, type SamlConfig } from './saml.config.js';
import { serverConfig, type ServerConfig } from '../config/server.config.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import type { SigningKey } from './saml-signer.js';
import { BINDING } from './saml-protocol.js';
import { samlify, type SamlifyIdentityProvider } from './samlify.js';

/** Who the front is: its entityID, its endpoints and its key (docs/saml.md, "The IdP"). */
@Injectable()
export class SamlIdentity {
  readonly entityId: string;
  readonly ssoUrl: string;
  readonly sloUrl: string;
  readonly metadataUrl: string;
  private readonly key: SigningKey | null;

  constructor(@Inject(samlConfig.KEY) config: SamlConfig, @Inject(serverConfig.KEY) server: ServerConfig) {
    this.key = config.signing ? { privateKey: config.signing.privateKey, certificate: config.signing.certificate } : null;
    this.entityId = `${server.publicBaseUrl}/saml`;
    this.ssoUrl = `${server.publicBaseUrl}/saml/sso`;
    this.sloUrl = `${server.publicBaseUrl}/saml/slo`;
    this.metadataUrl = `${server.publicBaseUrl}/saml/metadata`;
  }

  /**
   * The front as samlify's IdP entity: it checks what SPs send (their signatures) and encrypts a
   * login's assertion when asked (XML Encryption 1.1's AES-GCM, the key by RSA-OAEP). It signs
   * nothing: xml-crypto does (saml-signer.ts), as samlify signs RSA only.
   */
  entity(options: { encryptAssertions?: boolean } = {}): SamlifyIdentityProvider {
    const key = this.signingKey();
    return samlify().IdentityProvider({
      entityID: this.entityId,
      signingCert: key.certificate,
      isAssertionEncrypted: options.encryptAssertions === true,
      dataEncryptionAlgorithm: 'http://www.w3.org/2009/xmlenc11#aes256-gcm',
      keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
      wantAuthnRequestsSigned: true,
      wantLogoutRequestSigned: true,
      singleSignOnService: [BINDING.redirect, BINDING.post].map((Binding) => ({ Binding, Location: this.ssoUrl })),
      singleLogoutService: [BINDING.redirect, BINDING.post].map((Binding) => ({ Binding, Location: this.sloUrl })),
    });
  }

  /** The signing key; without SAML_SIGNING_KEY the front is off and its routes answer 404. */
  signingKey(): SigningKey {
    if (!this.key) throw new DomainException('not_found', 'The SAML front is not configured (SAML_SIGNING_KEY).');
    return this.key;
  }
}
