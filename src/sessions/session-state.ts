import type { CollectResult, CompletedIdentity } from '../eid-providers/eid-provider.js';

export type SessionStatus = 'pending' | 'complete' | 'failed';

export type SessionTransition =
  | { kind: 'none' }
  | { kind: 'progress'; hintCode: string }
  | { kind: 'complete'; completion: CompletedIdentity }
  | { kind: 'fail'; hintCode: string };

export interface SessionSnapshot {
  status: SessionStatus;
  hintCode: string | null;
  expiresAt: Date;
}

/**
 * The session state machine: pending moves on with the provider's answer; complete and failed are
 * final. A session past its lifetime fails with expiredTransaction whatever the provider says
 * (or when it cannot be asked), so no session stays pending for ever.
 */
export function transitionAfterCollect(session: SessionSnapshot, collected: CollectResult | null, now: Date): SessionTransition {
  if (session.status !== 'pending') return { kind: 'none' };
  if (collected?.status === 'complete' && collected.completion) return { kind: 'complete', completion: collected.completion };
  if (collected?.status === 'failed') return { kind: 'fail', hintCode: collected.hintCode ?? 'unknown' };
  if (now >= session.expiresAt) return { kind: 'fail', hintCode: 'expiredTransaction' };
  if (collected?.status === 'pending' && collected.hintCode && collected.hintCode !== session.hintCode) {
    return { kind: 'progress', hintCode: collected.hintCode };
  }
  return { kind: 'none' };
}

export const isFinal = (status: SessionStatus): boolean => status !== 'pending';
