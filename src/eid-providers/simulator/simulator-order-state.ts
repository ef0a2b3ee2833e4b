import type { CollectResult } from '../eid-provider.js';
import type { SimulatorOrder } from './simulator-order.entity.js';

export interface SimulatorTimings {
  startTimeoutMs: number;
  orderTtlMs: number;
}

// After the pick-up the app shows the order (started, or userCallConfirm on a call), then the user
// enters the PIN (userSign).
export const STARTED_MS = 1_000;
export const USER_SIGN_MS = 1_000;

/**
 * What BankID's collect would answer for this order at `now` (docs/bankid.md, "Hint sequences").
 * App channel: outstandingTransaction until a client picks the order up, startFailed when none does
 * in time, then started → userSign → complete (or userCancel). Phone channel: outstandingTransaction
 * until the user answers in the app, then userCallConfirm → userSign → complete, or userDeclinedCall.
 * Either fails expiredTransaction when the order outlives its lifetime.
 */
export function simulatorOrderStatus(
  order: Pick<SimulatorOrder, 'createdAt' | 'scannedAt' | 'action' | 'cancelledAt'> & Partial<Pick<SimulatorOrder, 'channel'>>,
  now: Date,
  timings: SimulatorTimings,
): Omit<CollectResult, 'completion'> {
  if (order.cancelledAt) return { status: 'failed', hintCode: 'cancelled' };
  const phone = order.channel === 'phone';
  const age = now.getTime() - order.createdAt.getTime();
  if (!order.scannedAt) {
    // A phone order is in the user's app already: it waits for them until it expires.
    const startTimeoutMs = phone ? Infinity : timings.startTimeoutMs;
    if (age >= Math.min(startTimeoutMs, timings.orderTtlMs)) {
      return { status: 'failed', hintCode: startTimeoutMs <= timings.orderTtlMs ? 'startFailed' : 'expiredTransaction' };
    }
    return { status: 'pending', hintCode: 'outstandingTransaction' };
  }
  const sinceScan = now.getTime() - order.scannedAt.getTime();
  if (sinceScan < STARTED_MS) return { status: 'pending', hintCode: phone ? 'userCallConfirm' : 'started' };
  if (order.action === 'decline') return { status: 'failed', hintCode: 'userDeclinedCall' };
  if (sinceScan < STARTED_MS + USER_SIGN_MS) {
    return age >= timings.orderTtlMs ? { status: 'failed', hintCode: 'expiredTransaction' } : { status: 'pending', hintCode: 'userSign' };
  }
  return order.action === 'cancel' ? { status: 'failed', hintCode: 'userCancel' } : { status: 'complete' };
}
