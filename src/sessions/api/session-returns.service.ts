import { Injectable, Logger } from '@nestjs/common';
import type { ApiKeyPrincipal } from '../../auth/principal.js';
import { Clock } from '../../common/clock/clock.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { EidProviderRegistry } from '../../eid-providers/eid-provider.registry.js';
import { describeProviderError } from '../settlement/provider-error.js';
import { returnNonceMatches } from './return-url.js';
import { SessionReader } from './session-reader.js';
import { SessionSettlement } from '../settlement/session-settlement.js';
import type { SessionView } from '../session-view.js';
import type { Session } from '../session.entity.js';
import { SessionStore } from '../session.store.js';

/** Wrong return nonces a session tolerates; the third fails it (docs/same-device.md). */
export const RETURN_NONCE_ATTEMPTS = 3;

/** The same-device return: the RP proves the person's browser came back with the session's nonce. */
@Injectable()
export class SessionReturnsService {
  private readonly logger = new Logger(SessionReturnsService.name);

  constructor(
    private readonly reader: SessionReader,
    private readonly store: SessionStore,
    private readonly settlement: SessionSettlement,
    private readonly providers: EidProviderRegistry,
    private readonly clock: Clock,
  ) {}

  /**
   * The RP's page got the person back with this nonce (docs/same-device.md): a match answers the poll
   * body and, once the session is complete, is accepted only once; wrong nonces from a key with
   * sessions:write are counted and the third fails a pending session, since another browser is trying
   * to finish it.
   */
  async confirmReturn(principal: ApiKeyPrincipal, sessionId: string, nonce: string): Promise<SessionView> {
    const session = await this.reader.findForKey(principal, sessionId);
    const mismatch = (detail: string) => new DomainException('return_nonce_mismatch', detail);
    if (!session.returnNonceHash) throw mismatch('The session was started without a returnUrl.');
    if (session.returnedAt || session.returnNonceFailures >= RETURN_NONCE_ATTEMPTS) {
      throw mismatch('The return of this session was accepted already or is locked.');
    }
    if (!returnNonceMatches(nonce, session.returnNonceHash)) {
      // Counting can fail a pending session and lock a return: a change, for keys that may change
      // sessions (sessions:write), not for a read-only key (docs/same-device.md).
      if (!principal.apiKey.scopes.includes('sessions:write')) throw mismatch('The nonce does not match this session.');
      const failures = await this.store.countReturnNonceFailure(session.id, RETURN_NONCE_ATTEMPTS);
      if (failures === RETURN_NONCE_ATTEMPTS && session.status === 'pending') await this.failForReturn(session);
      throw mismatch('The nonce does not match this session.');
    }
    const current = await this.settlement.collectIfDue(session);
    if (current.status === 'complete' && !(await this.store.markReturned(current.id, this.clock.now(), RETURN_NONCE_ATTEMPTS))) {
      throw mismatch('The return of this session was accepted already or is locked.');
    }
    return this.reader.view(current);
  }

  private async failForReturn(session: Session): Promise<void> {
    const provider = this.providers.find(session.provider);
    // The order is withdrawn too, so the app cannot still complete it for whoever holds it.
    if (provider)
      await provider
        .cancel(session)
        .catch((error: unknown) => this.logger.warn({ provider: provider.name, err: describeProviderError(error) }, 'Cancel failed'));
    await this.settlement.apply(session, { kind: 'fail', hintCode: 'returnNonceMismatch' });
  }
}
