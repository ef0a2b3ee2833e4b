import type { CollectResult } from '../eid-provider.js';
import type { SimulatorOrder } from './simulator-order.entity.js';

export interface SimulatorTimings {
  startTimeoutMs: number;
  orderTtlMs: number;
}

// After the scan the app shows the order (started), then the user enters the PIN (userSign).
export const STARTED_MS = 1_000;
export const USER_SIGN_MS = 1_000;

/**
 * What BankID's collect would answer for this order at `now`: outstandingTransaction until a
 * client picks it up, startFailed when none does in time, then started → userSign → complete
 * (or userCancel), and expiredTransaction when the order outlives its lifetime.
 */
export function simulatorOrderStatus(
  order: Pick<SimulatorOrder, 'createdAt' | 'scannedAt' | 'action' | 'cancelledAt'>,
  now: Date,
  timings: SimulatorTimings,
): Omit<CollectResult, 'completion'> {
  if (order.cancelledAt) return { status: 'failed', hintCode: 'cancelled' };
  const age = now.getTime() - order.createdAt.getTime();
  if (!order.scannedAt) {
    if (age >= Math.min(timings.startTimeoutMs, timings.orderTtlMs)) {
      return { status: 'failed', hintCode: timings.startTimeoutMs <= timings.orderTtlMs ? 'startFailed' : 'expiredTransaction' };
    }
    return { status: 'pending', hintCode: 'outstandingTransaction' };
  }
  const sinceScan = now.getTime() - order.scannedAt.getTime();
  if (sinceScan < STARTED_MS) return { status: 'pending', hintCode: 'started' };
  if (sinceScan < STARTED_MS + USER_SIGN_MS) {
    return age >= timings.orderTtlMs ? { status: 'failed', hintCode: 'expiredTransaction' } : { status: 'pending', hintCode: 'userSign' };
  }
  return order.action === 'cancel' ? { status: 'failed', hintCode: 'userCancel' } : { status: 'complete' };
}
