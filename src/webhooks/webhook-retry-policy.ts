/** Svix spreads retries by ±20 %, so endpoints that failed together do not retry in lockstep. */
export const RETRY_JITTER = 0.2;

/**
 * The delay before the next attempt after `attemptsMade` failed ones, or null when the schedule is
 * spent and the message has failed. Attempt 1 is immediate; schedule[i] precedes attempt i + 2.
 */
export function nextRetryDelayMs(attemptsMade: number, scheduleMs: readonly number[], random: () => number = Math.random): number | null {
  if (attemptsMade < 1 || attemptsMade > scheduleMs.length) return null;
  const base = scheduleMs[attemptsMade - 1];
  return Math.round(base * (1 + RETRY_JITTER * (2 * random() - 1)));
}
