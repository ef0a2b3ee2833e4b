export const STATS_RANGES = ['24h', '7d', '30d'] as const;
export type StatsRange = (typeof STATS_RANGES)[number];

export const SESSION_OUTCOMES = ['complete', 'failed', 'cancelled', 'expired', 'pending'] as const;
export type SessionOutcome = (typeof SESSION_OUTCOMES)[number];

export interface StatsWindow {
  from: Date;
  to: Date;
  bucket: 'hour' | 'day';
  /** The start of every bucket, oldest first: a chart's x axis has no gaps. */
  starts: Date[];
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The buckets of a range ending now (docs/console.md, "Overview"): 24 hours, or 7 or 30 UTC days,
 * the last one being the current hour or day so far.
 */
export function statsWindow(range: StatsRange, now: Date): StatsWindow {
  const [size, count] = range === '24h' ? [HOUR_MS, 24] : [DAY_MS, range === '7d' ? 7 : 30];
  const current = Math.floor(now.getTime() / size) * size;
  const starts = Array.from({ length: count }, (_, i) => new Date(current - (count - 1 - i) * size));
  return { from: starts[0], to: now, bucket: size === HOUR_MS ? 'hour' : 'day', starts };
}

/** How a session ended, as the overview counts it: cancelled and expired apart from the other failures. */
export function outcomeOf(status: string, hintCode: string | null): SessionOutcome {
  if (status === 'complete' || status === 'pending') return status;
  if (hintCode === 'cancelled' || hintCode === 'userCancel') return 'cancelled';
  if (hintCode === 'expiredTransaction') return 'expired';
  return 'failed';
}
