import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import { Clock } from '../common/clock/clock.js';
import { sha256 } from '../common/crypto/constant-time.js';
import { randomBase62 } from '../common/crypto/random-token.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { serverConfig, type ServerConfig } from '../config/server.config.js';
import { sessionsConfig, type SessionsConfig } from '../config/sessions.config.js';
import type { IdCardVerifier } from '../sessions/idcard-sessions.service.js';
import type { CounterLink } from './counter-link.entity.js';
import { CounterLinkStore } from './counter-link.store.js';

/** Verifications one counter link may make a minute (docs/idcard.md, "Counter links"): a queue at a till, not a script. */
export const COUNTER_LINK_PER_MINUTE = 30;
const TOKEN_PREFIX = 'eidc_';
// `Counter eidc_<43 base62>`: anchored, one fixed class, linear on any input.
const AUTHORIZATION = /^Counter (eidc_[0-9A-Za-z]{43})$/;

/** A link as the console and the CLI list it: never its token. */
export interface CounterLinkView {
  id: string;
  label: string;
  environment: ApiKeyEnvironment;
  provider: string;
  createdAt: string;
  revokedAt: string | null;
}

/**
 * Counter links (docs/idcard.md): a capability to verify ID cards for one team and environment at a
 * counter page, never an API key. Its token is shown once, in the link's fragment; only its hash is kept.
 */
@Injectable()
export class CounterLinksService {
  constructor(
    private readonly store: CounterLinkStore,
    private readonly clock: Clock,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
    @Inject(sessionsConfig.KEY) private readonly sessions: SessionsConfig,
  ) {}

  async create(
    teamId: string,
    input: { label: string; environment?: ApiKeyEnvironment; provider?: string },
  ): Promise<CounterLinkView & { url: string }> {
    const environment = input.environment ?? 'test';
    const provider = input.provider ?? 'bankid';
    // Whether it verifies ID cards for that environment is the verify route's check (unknown_provider there too).
    if (!this.sessions.providers.includes(provider))
      throw new DomainException('unknown_provider', 'No e-ID provider of that name is enabled.');
    const token = `${TOKEN_PREFIX}${randomBase62(43)}`;
    const link: CounterLink = {
      id: randomUUID(),
      teamId,
      environment,
      provider,
      label: input.label,
      tokenHash: sha256(token),
      createdAt: this.clock.now(),
      revokedAt: null,
      windowStartedAt: null,
      windowCount: 0,
    };
    await this.store.insert(link);
    // In the fragment: the token never reaches a server log or a Referer.
    return { ...viewOf(link), url: `${this.server.publicBaseUrl}/kiosk/counter#t=${token}` };
  }

  async list(teamId: string): Promise<CounterLinkView[]> {
    return (await this.store.listForTeam(teamId)).map(viewOf);
  }

  async revoke(teamId: string, id: string): Promise<CounterLinkView> {
    const revoked = await this.store.revoke(teamId, id, this.clock.now());
    if (!revoked) throw new DomainException('not_found', 'No such counter link.');
    return viewOf(revoked);
  }

  /** `Authorization: Counter <token>` of a live link within its minute's allowance: who verifies, and with which provider. */
  async authorize(authorization: string | undefined): Promise<{ verifier: IdCardVerifier; provider: string }> {
    const token = AUTHORIZATION.exec(authorization ?? '')?.[1];
    const link = token ? await this.store.use(sha256(token), this.clock.now()) : null;
    if (!link) {
      throw new DomainException('invalid_kiosk_token', 'The counter link is not valid or was revoked.', {
        headers: { 'www-authenticate': 'Counter realm="eid-gateway"' },
      });
    }
    if (link.windowCount > COUNTER_LINK_PER_MINUTE) {
      throw new DomainException('rate_limit_exceeded', 'This counter link made too many verifications this minute.', {
        headers: { 'retry-after': '60' },
      });
    }
    return { verifier: { teamId: link.teamId, environment: link.environment, apiKeyId: null }, provider: link.provider };
  }
}

function viewOf(link: CounterLink): CounterLinkView {
  return {
    id: link.id,
    label: link.label,
    environment: link.environment,
    provider: link.provider,
    createdAt: link.createdAt.toISOString(),
    revokedAt: link.revokedAt ? link.revokedAt.toISOString() : null,
  };
}
