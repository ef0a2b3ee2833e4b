import type { CompletedIdentity } from '../eid-providers/eid-provider.js';
import type { Session } from './session.entity.js';

/** The poll body (docs/api.md): status and hint, and the identity once complete (until purged). */
export function sessionView(session: Session, completion: CompletedIdentity | null) {
  return {
    sessionId: session.id,
    provider: session.provider,
    // Which world answered (docs/security.md): a live integration can refuse a simulated identity.
    environment: session.environment,
    status: session.status,
    ...(session.hintCode && session.status !== 'complete' ? { hintCode: session.hintCode } : {}),
    ...(completion ? { user: completion.user, device: completion.device ?? {} } : {}),
    ...(session.completedAt ? { completedAt: session.completedAt.toISOString() } : {}),
  };
}

export type SessionView = ReturnType<typeof sessionView>;
