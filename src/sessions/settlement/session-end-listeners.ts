import { Injectable, Logger } from '@nestjs/common';
import type { Session } from '../session.entity.js';

/** Told about a session once its final state is committed; must not throw into the settlement. */
export type SessionEndListener = (session: Session) => Promise<void>;

/**
 * A provider-neutral seam for fronts that wait on a session (docs/oidc.md, "CIBA"): SessionSettlement
 * calls every listener after the transaction that ended a session, whoever ended it (a poll, the
 * background collector, a cancel). Webhooks stay on the outbox; this is for in-process follow-ups.
 */
@Injectable()
export class SessionEndListeners {
  private readonly logger = new Logger(SessionEndListeners.name);
  private readonly listeners: SessionEndListener[] = [];

  add(listener: SessionEndListener): void {
    this.listeners.push(listener);
  }

  notify(session: Session): void {
    for (const listener of this.listeners) {
      // A listener's failure is its own: the session has ended whatever it does.
      listener(session).catch((error: unknown) =>
        this.logger.warn(
          { sessionId: session.id, err: error instanceof Error ? error.message : String(error) },
          'Session end listener failed',
        ),
      );
    }
  }
}
