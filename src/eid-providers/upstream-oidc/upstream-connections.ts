import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import * as client from 'openid-client';
import { Clock } from '../../common/clock/clock.js';
import { ProviderUnavailableError } from '../eid-provider.js';
import { upstreamKeys, type UpstreamKey } from './upstream-keys.js';
import { upstreamOidcConfig, type UpstreamOidcConfig } from './upstream-oidc.config.js';
import type { UpstreamConfig } from './upstream-oidc.env.js';

/** One upstream as the service talks to it: its discovered metadata and the service's keys. */
export interface UpstreamConnection {
  upstream: UpstreamConfig;
  config: client.Configuration;
  signing?: UpstreamKey;
}

interface Discovery {
  connection?: UpstreamConnection;
  /** When the last attempt failed, and why (no secrets: the library's message only). */
  failure?: { at: string; reason: string };
}

// An upstream that was unreachable at start is asked again at most this often, when a session needs it.
const RETRY_AFTER_MS = 30_000;

/**
 * The upstreams' discovery documents, fetched at start and kept (docs/upstream-oidc.md). An
 * unreachable upstream does not stop the start: readiness names it, and its sessions answer 502
 * provider_unavailable until a later attempt reaches it.
 */
@Injectable()
export class UpstreamConnections implements OnModuleInit {
  private readonly logger = new Logger(UpstreamConnections.name);
  private readonly discoveries = new Map<string, Discovery & { attempt?: Promise<void>; lastAttemptMs?: number }>();

  constructor(
    @Inject(upstreamOidcConfig.KEY) private readonly settings: UpstreamOidcConfig,
    private readonly clock: Clock,
  ) {}

  get upstreams(): readonly UpstreamConfig[] {
    return this.settings.upstreams;
  }

  async onModuleInit(): Promise<void> {
    await Promise.all(this.settings.upstreams.map((upstream) => this.discover(upstream)));
  }

  /** The upstream's connection; retries a failed discovery now and then; 502 when it stays away. */
  async get(upstream: UpstreamConfig): Promise<UpstreamConnection> {
    const state = this.discoveries.get(upstream.name);
    if (!state?.connection && this.clock.nowMs() - (state?.lastAttemptMs ?? 0) >= RETRY_AFTER_MS) await this.discover(upstream);
    const connection = this.discoveries.get(upstream.name)?.connection;
    if (!connection) throw new ProviderUnavailableError(`The upstream ${upstream.name} could not be discovered`);
    return connection;
  }

  /** The upstream's discovered metadata; none while it has not been discovered. */
  metadataOf(upstream: UpstreamConfig): client.ServerMetadata | undefined {
    return this.discoveries.get(upstream.name)?.connection?.config.serverMetadata();
  }

  /** Readiness: `discovery` ok or unreachable, with when and why it last failed. */
  status(upstream: UpstreamConfig): { discovery: 'ok' | 'unreachable'; at?: string; reason?: string } {
    const state = this.discoveries.get(upstream.name);
    return state?.connection ? { discovery: 'ok' } : { discovery: 'unreachable', ...state?.failure };
  }

  private discover(upstream: UpstreamConfig): Promise<void> {
    const state = this.discoveries.get(upstream.name) ?? {};
    this.discoveries.set(upstream.name, state);
    state.attempt ??= this.attempt(upstream, state).finally(() => {
      state.attempt = undefined;
    });
    return state.attempt;
  }

  private async attempt(upstream: UpstreamConfig, state: Discovery & { lastAttemptMs?: number }): Promise<void> {
    state.lastAttemptMs = this.clock.nowMs();
    try {
      const { signing, decryption } = await upstreamKeys(upstream);
      const auth =
        upstream.clientAuth === 'private_key_jwt'
          ? client.PrivateKeyJwt({ key: signing!.key, kid: signing!.kid })
          : client.ClientSecretBasic(upstream.clientSecret ?? '');
      const config = await client.discovery(new URL(upstream.issuer), upstream.clientId, undefined, auth, {
        timeout: this.settings.timeoutSeconds,
        // http:// issuers pass the configuration check outside production only (upstream-oidc.config.ts).
        ...(upstream.issuer.startsWith('http:') ? { execute: [client.allowInsecureRequests] } : {}),
      });
      // openid-client trusts TLS for the token endpoint's id token by default; the evidence needs its signature checked.
      client.enableNonRepudiationChecks(config);
      if (decryption)
        client.enableDecryptingResponses(config, undefined, { key: decryption.key, kid: decryption.kid, alg: decryption.alg });
      state.connection = { upstream, config, signing };
      state.failure = undefined;
      this.logger.log({ upstream: upstream.name }, 'Upstream OpenID provider discovered');
    } catch (error) {
      state.failure = { at: this.clock.now().toISOString(), reason: (error as Error)?.message ?? 'unknown' };
      this.logger.error({ upstream: upstream.name, reason: state.failure.reason }, 'Upstream OpenID provider discovery failed');
    }
  }
}
