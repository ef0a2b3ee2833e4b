import type { CompletedIdentity } from '../../eid-providers/eid-provider.js';
import type { UserMessageTable } from '../../eid-providers/user-messages.js';
import type { OutboxEvent } from '../../webhooks/webhook-outbox.js';
import type { SessionTransitionRow } from '../session.store.js';
import { sessionView, type SessionOutcome } from '../session-view.js';
import type { Session } from '../session.entity.js';

/** Every column a transition may touch: a progress keeps the pending values. */
export function rowOf(session: Session, changes: Partial<Session>): SessionTransitionRow {
  return {
    id: session.id,
    status: changes.status ?? session.status,
    hintCode: changes.hintCode === undefined ? session.hintCode : changes.hintCode,
    completionEnc: changes.completionEnc ?? null,
    evidenceEnc: changes.evidenceEnc ?? null,
    resultTokenEnc: changes.resultTokenEnc ?? null,
    completedAt: changes.completedAt ?? null,
  };
}

/** A change as the timeline keeps it: status and hint code, nothing personal. */
export function timelineRow(session: Session, changes: Partial<Session>) {
  const row = rowOf(session, changes);
  return { sessionId: row.id, status: row.status, hintCode: row.hintCode };
}

/** The webhook of an ended session (docs/webhooks.md): the poll answer plus the RP's metadata. */
export function endedEvent(
  session: Session,
  completion: CompletedIdentity | null,
  outcome: SessionOutcome,
  messages: UserMessageTable | undefined,
): OutboxEvent {
  return {
    teamId: session.teamId,
    environment: session.environment,
    sessionId: session.id,
    // sign.session.* for signatures, auth.session.* for identifications, on either channel (docs/webhooks.md).
    type: `${session.operation}.session.${session.status === 'complete' ? 'completed' : 'failed'}`,
    occurredAt: session.completedAt!,
    data: eventData(session, completion, outcome, messages),
  };
}

/** The webhook of a pending session whose hintCode changed: the pending poll answer, never a user. */
export function progressEvent(session: Session, now: Date, messages: UserMessageTable | undefined): OutboxEvent {
  return {
    teamId: session.teamId,
    environment: session.environment,
    sessionId: session.id,
    type: `${session.operation}.session.updated`,
    occurredAt: now,
    data: eventData(session, null, undefined, messages),
  };
}

function eventData(
  session: Session,
  completion: CompletedIdentity | null,
  outcome: SessionOutcome | undefined,
  messages: UserMessageTable | undefined,
): Record<string, unknown> {
  return { ...sessionView(session, completion, outcome, messages), ...(session.metadata ? { metadata: session.metadata } : {}) };
}
