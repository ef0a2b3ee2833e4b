import type { UserMessageTable } from '../../eid-providers/user-messages.js';
import type { WebhookEventType } from '../../webhooks/webhook-event-types.js';
import type { OutboxEvent } from '../../webhooks/webhook-outbox.js';
import type { SessionTransitionRow } from '../session.store.js';
import type { SessionAnswer } from './session-result.js';
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
  completion: SessionAnswer | null,
  outcome: SessionOutcome,
  messages: UserMessageTable | undefined,
): OutboxEvent {
  return {
    teamId: session.teamId,
    environment: session.environment,
    sessionId: session.id,
    type: endedEventType(session),
    occurredAt: session.completedAt!,
    data: eventData(session, completion, outcome, messages),
  };
}

// sign.session.* for signatures, auth.session.* for identifications, on either channel (docs/webhooks.md);
// an ID card session is made complete, so it has only idcard.session.completed (docs/idcard.md).
function endedEventType({ operation, status }: Session): WebhookEventType {
  return operation === 'idcard' ? 'idcard.session.completed' : `${operation}.session.${status === 'complete' ? 'completed' : 'failed'}`;
}

/** The webhook of a pending session whose hintCode changed: the pending poll answer, never a user. */
export function progressEvent(session: Session, now: Date, messages: UserMessageTable | undefined): OutboxEvent {
  const { operation } = session;
  // Never pending, an ID card session has no progress (docs/idcard.md).
  if (operation === 'idcard') throw new Error('An ID card session has no progress events');
  return {
    teamId: session.teamId,
    environment: session.environment,
    sessionId: session.id,
    type: `${operation}.session.updated`,
    occurredAt: now,
    data: eventData(session, null, undefined, messages),
  };
}

function eventData(
  session: Session,
  completion: SessionAnswer | null,
  outcome: SessionOutcome | undefined,
  messages: UserMessageTable | undefined,
): Record<string, unknown> {
  return { ...sessionView(session, completion, outcome, messages), ...(session.metadata ? { metadata: session.metadata } : {}) };
}
