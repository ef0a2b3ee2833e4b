import { COLLECT_INTERVAL_MS, collectDueBefore } from './collect-cadence.js';

const NOW = new Date('2026-01-01T12:00:10.000Z');
const collectedAgo = (ms: number) => new Date(NOW.getTime() - ms);
const isDue = (lastCollectedAt: Date, intervals?: number) => lastCollectedAt <= collectDueBefore(NOW, intervals);

describe('collectDueBefore', () => {
  it('should make a session due at the next tick even when the tick comes a hair under an interval later', () => {
    expect(isDue(collectedAgo(COLLECT_INTERVAL_MS))).toBe(true);
    expect(isDue(collectedAgo(COLLECT_INTERVAL_MS - 3))).toBe(true);
    expect(isDue(collectedAgo(1_500))).toBe(true);
  });

  it('should never make a session due twice within a second (BankID: at most one collect a second)', () => {
    expect(isDue(collectedAgo(1_499))).toBe(false);
    expect(isDue(collectedAgo(1_000))).toBe(false);
    expect(isDue(collectedAgo(0))).toBe(false);
  });

  it('should scale with the intervals a poll lets the collector lag, with the same tolerance', () => {
    expect(isDue(collectedAgo(3_499), 2)).toBe(false);
    expect(isDue(collectedAgo(3_500), 2)).toBe(true);
  });
});
