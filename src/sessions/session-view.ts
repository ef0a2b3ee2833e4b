import { userMessageFor, type UserMessageTable } from '../eid-providers/user-messages.js';
import type { EvidenceView } from './settlement/evidence.service.js';
import { answerMembers, idCardOf, type SessionAnswer } from './settlement/session-result.js';
import type { Session } from './session.entity.js';

/** What a final session answers beside its identity, until personal data is purged (docs/evidence.md). */
export interface SessionOutcome {
  evidence?: EvidenceView;
  resultToken?: string;
}

/**
 * The poll body (docs/api.md): status, hint and the provider's message for it (from `messages`, its
 * table), and the identity, evidence and signed result once final (until purged).
 */
export function sessionView(
  session: Session,
  completion: SessionAnswer | null,
  outcome: SessionOutcome = {},
  messages: UserMessageTable | undefined = undefined,
) {
  // A returnUrl means the app was to open on the person's own device (docs/same-device.md).
  const sameDevice = session.returnNonceHash !== null;
  const userMessage =
    messages && userMessageFor(messages, session.status, session.hintCode, { launch: sameDevice ? 'autostart' : 'qr', mobile: sameDevice });
  return {
    sessionId: session.id,
    provider: session.provider,
    // Which world answered (docs/security.md): a live integration can refuse a simulated identity.
    environment: session.environment,
    operation: session.operation,
    channel: session.channel,
    status: session.status,
    ...(session.hintCode && session.status !== 'complete' ? { hintCode: session.hintCode } : {}),
    ...(userMessage ? { userMessage } : {}),
    ...answerMembers(completion),
    // An ID card's verification and its holder's authentication (docs/idcard.md).
    ...(completion ? idCardOf(completion)?.idCard : {}),
    ...(session.completedAt ? { completedAt: session.completedAt.toISOString() } : {}),
    ...(outcome.evidence ? { evidence: outcome.evidence } : {}),
    ...(outcome.resultToken ? { resultToken: outcome.resultToken } : {}),
  };
}

export type SessionView = ReturnType<typeof sessionView>;
