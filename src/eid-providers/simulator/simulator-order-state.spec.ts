import { simulatorOrderStatus } from './simulator-order-state.js';

const T0 = new Date('2026-11-21T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const timings = { startTimeoutMs: 30_000, orderTtlMs: 180_000 };

describe(simulatorOrderStatus.name, () => {
  it.each([
    ['unscanned, fresh', { scannedAt: null, action: null }, 0, { status: 'pending', hintCode: 'outstandingTransaction' }],
    ['unscanned, 29.9 s', { scannedAt: null, action: null }, 29_900, { status: 'pending', hintCode: 'outstandingTransaction' }],
    ['unscanned, 30 s', { scannedAt: null, action: null }, 30_000, { status: 'failed', hintCode: 'startFailed' }],
    ['just scanned', { scannedAt: at(10_000), action: 'approve' }, 10_500, { status: 'pending', hintCode: 'started' }],
    ['in the PIN step', { scannedAt: at(10_000), action: 'approve' }, 11_500, { status: 'pending', hintCode: 'userSign' }],
    ['approved', { scannedAt: at(10_000), action: 'approve' }, 12_000, { status: 'complete' }],
    ['approved long ago', { scannedAt: at(10_000), action: 'approve' }, 400_000, { status: 'complete' }],
    ['cancelled in the app', { scannedAt: at(10_000), action: 'cancel' }, 12_000, { status: 'failed', hintCode: 'userCancel' }],
    ['signing at expiry', { scannedAt: at(179_500), action: 'approve' }, 180_600, { status: 'failed', hintCode: 'expiredTransaction' }],
  ] as const)('should answer %s', (_name, order, elapsed, expected) => {
    expect(simulatorOrderStatus({ createdAt: T0, cancelledAt: null, ...order }, at(elapsed), timings)).toEqual(expected);
  });

  it('should answer cancelled once the RP cancelled, whatever else happened', () => {
    expect(
      simulatorOrderStatus({ createdAt: T0, scannedAt: at(1_000), action: 'approve', cancelledAt: at(1_500) }, at(5_000), timings),
    ).toEqual({ status: 'failed', hintCode: 'cancelled' });
  });

  it('should expire an unscanned order with expiredTransaction when its lifetime is shorter than the start timeout', () => {
    const order = { createdAt: T0, scannedAt: null, action: null, cancelledAt: null };
    expect(simulatorOrderStatus(order, at(60_000), { startTimeoutMs: 600_000, orderTtlMs: 60_000 })).toEqual({
      status: 'failed',
      hintCode: 'expiredTransaction',
    });
  });
});

describe(`${simulatorOrderStatus.name} (phone channel)`, () => {
  const phone = (scannedAt: Date | null, action: 'approve' | 'decline' | null) => ({
    createdAt: T0,
    cancelledAt: null,
    channel: 'phone' as const,
    scannedAt,
    action,
  });

  it.each([
    ['waiting for the user, 60 s', phone(null, null), 60_000, { status: 'pending', hintCode: 'outstandingTransaction' }],
    ['never answered', phone(null, null), 180_000, { status: 'failed', hintCode: 'expiredTransaction' }],
    ['asked to confirm the call', phone(at(10_000), 'approve'), 10_500, { status: 'pending', hintCode: 'userCallConfirm' }],
    ['in the PIN step', phone(at(10_000), 'approve'), 11_500, { status: 'pending', hintCode: 'userSign' }],
    ['approved', phone(at(10_000), 'approve'), 12_000, { status: 'complete' }],
    ['declined while confirming', phone(at(10_000), 'decline'), 10_500, { status: 'pending', hintCode: 'userCallConfirm' }],
    ['declined', phone(at(10_000), 'decline'), 11_000, { status: 'failed', hintCode: 'userDeclinedCall' }],
  ] as const)('should answer %s', (_name, order, elapsed, expected) => {
    expect(simulatorOrderStatus(order, at(elapsed), timings)).toEqual(expected);
  });
});
