import { outcomeOf, statsWindow } from './stats-range.js';

describe('statsWindow', () => {
  const now = new Date('2026-11-27T21:45:12.000Z');

  it('should cut 24 h into 24 hours ending with the current one', () => {
    const window = statsWindow('24h', now);
    expect(window.bucket).toBe('hour');
    expect(window.starts).toHaveLength(24);
    expect(window.starts[23].toISOString()).toBe('2026-11-27T21:00:00.000Z');
    expect(window.from.toISOString()).toBe('2026-11-26T22:00:00.000Z');
    expect(window.to).toBe(now);
  });

  it.each([
    ['7d', 7, '2026-11-21T00:00:00.000Z'],
    ['30d', 30, '2026-10-29T00:00:00.000Z'],
  ] as const)('should cut %s into %d UTC days', (range, days, from) => {
    const window = statsWindow(range, now);
    expect(window.bucket).toBe('day');
    expect(window.starts).toHaveLength(days);
    expect(window.from.toISOString()).toBe(from);
    expect(window.starts.at(-1)!.toISOString()).toBe('2026-11-27T00:00:00.000Z');
  });
});

describe('outcomeOf', () => {
  it.each([
    ['complete', null, 'complete'],
    ['pending', 'started', 'pending'],
    ['failed', 'userCancel', 'cancelled'],
    ['failed', 'cancelled', 'cancelled'],
    ['failed', 'expiredTransaction', 'expired'],
    ['failed', 'startFailed', 'failed'],
    ['failed', null, 'failed'],
  ])('should count status %s with hint %s as %s', (status, hint, outcome) => {
    expect(outcomeOf(status, hint)).toBe(outcome);
  });
});
