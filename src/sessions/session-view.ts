import type { CompletedIdentity } from '../eid-providers/eid-provider.js';
import type { Session } from './session.entity.js';
import { userMessageFor } from './user-messages.js';

/** The poll body (docs/api.md): status, hint and BankID's message for it, and the identity once complete (until purged). */
export function sessionView(session: Session, completion: CompletedIdentity | null) {
  // A returnUrl means the app was to open on the person's own device (docs/same-device.md).
  const sameDevice = session.returnNonceHash !== null;
  const userMessage = userMessageFor(session.status, session.hintCode, { launch: sameDevice ? 'autostart' : 'qr', mobile: sameDevice });
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
    ...(completion ? { user: completion.user, device: completion.device ?? {} } : {}),
    ...(session.completedAt ? { completedAt: session.completedAt.toISOString() } : {}),
  };
}

export type SessionView = ReturnType<typeof sessionView>;
