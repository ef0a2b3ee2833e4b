import type { X509Certificate } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Agent } from 'undici';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { bankIdConfig, type BankIdConfig } from './bankid.config.js';
import { BankIdClient } from './bankid-client.js';
import { loadMutualTls } from '../shared/mutual-tls.js';

export interface BankIdConnection {
  environment: ApiKeyEnvironment;
  client: BankIdClient;
  certificate: X509Certificate;
  /** Which variables hold the certificate, for the operator's messages. */
  certificateSource: string;
}

/**
 * One mutual-TLS connection pool per configured BankID environment, built at start: a missing
 * file, a wrong passphrase or a bad CA stops the service with a message naming the variable.
 */
@Injectable()
export class BankIdConnections implements OnModuleDestroy {
  private readonly connections = new Map<ApiKeyEnvironment, BankIdConnection>();
  private readonly agents: Agent[] = [];

  constructor(@Inject(bankIdConfig.KEY) config: BankIdConfig) {
    for (const environment of ['live', 'test'] as const) {
      const settings = config.environments[environment];
      if (!settings) continue;
      const tls = loadMutualTls(settings);
      // undici rather than node:https: keep-alive pooling and per-request abort signals.
      const agent = new Agent({ connect: { ...tls.options, timeout: config.timeoutMs }, keepAliveTimeout: 30_000 });
      this.agents.push(agent);
      this.connections.set(environment, {
        environment,
        client: new BankIdClient({
          baseUrl: settings.url,
          idCardUrl: settings.idCardUrl,
          dispatcher: agent,
          timeoutMs: config.timeoutMs,
          retryDelaysMs: config.retryDelaysMs,
        }),
        certificate: tls.certificate,
        certificateSource: settings.pfx ? settings.source.pfx : settings.source.cert,
      });
    }
  }

  get(environment: ApiKeyEnvironment): BankIdConnection | undefined {
    return this.connections.get(environment);
  }

  all(): BankIdConnection[] {
    return [...this.connections.values()];
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.agents.map((agent) => agent.close()));
  }
}
