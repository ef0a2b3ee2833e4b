import type { X509Certificate } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Agent } from 'undici';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { frejaConfig, type FrejaConfig } from './freja.config.js';
import { loadMutualTls } from '../shared/mutual-tls.js';
import { FrejaClient } from './freja-client.js';
import { FrejaJwsVerifier } from './freja-jws.js';

export interface FrejaConnection {
  environment: ApiKeyEnvironment;
  client: FrejaClient;
  /** Freja's result signing certificates of this environment. */
  verifier: FrejaJwsVerifier;
  certificate: X509Certificate;
  /** Which variables hold the RP certificate, for the operator's messages. */
  certificateSource: string;
}

/**
 * One mutual-TLS connection pool per configured Freja environment, built at start with the same
 * key-material rules as BankID's (docs/freja.md): a missing file, a wrong passphrase, a bad CA or
 * unreadable signing certificates stop the service with a message naming the variable.
 */
@Injectable()
export class FrejaConnections implements OnModuleDestroy {
  private readonly connections = new Map<ApiKeyEnvironment, FrejaConnection>();
  private readonly agents: Agent[] = [];

  constructor(@Inject(frejaConfig.KEY) config: FrejaConfig) {
    for (const environment of ['live', 'test'] as const) {
      const settings = config.environments[environment];
      if (!settings) continue;
      const tls = loadMutualTls(settings);
      const verifier = FrejaJwsVerifier.fromFile(settings.jwsCerts, settings.jwsCertsVariable);
      const agent = new Agent({ connect: { ...tls.options, timeout: config.timeoutMs }, keepAliveTimeout: 30_000 });
      this.agents.push(agent);
      this.connections.set(environment, {
        environment,
        client: new FrejaClient({ baseUrl: settings.url, dispatcher: agent, timeoutMs: config.timeoutMs }),
        verifier,
        certificate: tls.certificate,
        certificateSource: settings.pfx ? settings.source.pfx : settings.source.cert,
      });
    }
  }

  get(environment: ApiKeyEnvironment): FrejaConnection | undefined {
    return this.connections.get(environment);
  }

  all(): FrejaConnection[] {
    return [...this.connections.values()];
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.agents.map((agent) => agent.close()));
  }
}
