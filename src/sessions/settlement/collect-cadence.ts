/** Collect every two seconds: the cadence the slowest-asking provider's API sets for all (docs/architecture.md, "Sessions"). */
export const COLLECT_INTERVAL_MS = 2_000;
/**
 * How much earlier than a whole interval a collect may come. The collector's next tick lands a hair
 * under an interval after the `now` its last claim wrote, so a due test without slack skipped every
 * other tick (a collect every 4 s). A provider may ask for a collect every 2 s and never more often
 * than once a second: 1.5 s is the shortest gap this allows (docs/architecture.md, "Sessions").
 */
export const COLLECT_TOLERANCE_MS = 500;

/** A session whose last collect is at or before this instant is due for a collect `intervals` intervals late. */
export function collectDueBefore(now: Date, intervals = 1): Date {
  return new Date(now.getTime() - intervals * COLLECT_INTERVAL_MS + COLLECT_TOLERANCE_MS);
}
