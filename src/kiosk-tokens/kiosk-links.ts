import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { serverConfig, type ServerConfig } from '../config/server.config.js';
import { KioskTokenSigner, type KioskScope } from './kiosk-token.js';

/** A kiosk link outlives its session by this much, so the screen can still learn and show the outcome. */
export const KIOSK_OUTCOME_GRACE_MS = 60_000;

const AUTHORIZATION = /^Kiosk ([A-Za-z0-9_-]+)$/;

/** Issues kiosk links and checks the token a kiosk page sends back. */
@Injectable()
export class KioskLinks {
  constructor(
    private readonly signer: KioskTokenSigner,
    private readonly clock: Clock,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
  ) {}

  /** `{PUBLIC_BASE_URL}/kiosk/{id}#t={token}`: in the fragment, the token never reaches a server log or a Referer. */
  urlFor(sessionId: string, sessionExpiresAt: Date): string {
    const token = this.signer.issue(sessionId, new Date(sessionExpiresAt.getTime() + KIOSK_OUTCOME_GRACE_MS));
    return `${this.server.publicBaseUrl}/kiosk/${sessionId}#t=${token}`;
  }

  /** A token that shows the session's QR and status but never gives its app link (docs/oidc.md, "The login page"). */
  watchTokenFor(sessionId: string, sessionExpiresAt: Date): string {
    return this.signer.issue(sessionId, new Date(sessionExpiresAt.getTime() + KIOSK_OUTCOME_GRACE_MS), 'watch');
  }

  /** Accepts `Authorization: Kiosk <token>` for this session and `need`; anything else is 401 invalid_kiosk_token. */
  authorize(authorization: string | undefined, sessionId: string, need: KioskScope = 'watch'): void {
    const token = AUTHORIZATION.exec(authorization ?? '')?.[1];
    const check = token ? this.signer.check(token, sessionId, this.clock.now(), need) : 'invalid';
    if (check === 'valid') return;
    throw new DomainException(
      'invalid_kiosk_token',
      check === 'expired' ? 'The kiosk link has expired.' : 'The kiosk link is not valid for this session.',
      { headers: { 'www-authenticate': 'Kiosk realm="eid-gateway"' } },
    );
  }
}
