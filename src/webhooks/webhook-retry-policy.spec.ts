import { nextRetryDelayMs } from './webhook-retry-policy.js';

const DEFAULT_SCHEDULE = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

describe(nextRetryDelayMs.name, () => {
  it.each([
    [1, 5_000],
    [2, 300_000],
    [3, 1_800_000],
    [7, 36_000_000],
  ])('should wait the scheduled delay after %p failed attempts when the jitter is zero', (attempts, delay) => {
    expect(nextRetryDelayMs(attempts, DEFAULT_SCHEDULE, () => 0.5)).toBe(delay);
  });

  it('should give up after the eighth attempt (immediately + 7 retries)', () => {
    expect(nextRetryDelayMs(8, DEFAULT_SCHEDULE)).toBeNull();
  });

  it('should spread the delay by at most 20 % either way', () => {
    expect(nextRetryDelayMs(1, DEFAULT_SCHEDULE, () => 0)).toBe(4_000);
    expect(nextRetryDelayMs(1, DEFAULT_SCHEDULE, () => 1)).toBe(6_000);
    for (let i = 0; i < 1_000; i++) {
      const delay = nextRetryDelayMs(2, DEFAULT_SCHEDULE)!;
      expect(delay).toBeGreaterThanOrEqual(240_000);
      expect(delay).toBeLessThanOrEqual(360_000);
    }
  });

  it('should fail at once with an empty schedule', () => {
    expect(nextRetryDelayMs(1, [])).toBeNull();
  });
});
