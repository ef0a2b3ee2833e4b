import { userMessageFor, type UserMessage, type UserMessageTable } from '../eid-providers/user-messages.js';
import { outcomeOf, SESSION_OUTCOMES, type SessionOutcome, type StatsWindow } from './stats-range.js';
import type { DeliveryCountRow, SessionCountRow } from './stats.store.js';

export type OutcomeCounts = Record<SessionOutcome, number>;
export type DeliveryCounts = { delivered: number; failed: number; pending: number };

const noOutcomes = (): OutcomeCounts => ({ complete: 0, failed: 0, cancelled: 0, expired: 0, pending: 0 });
const noDeliveries = (): DeliveryCounts => ({ delivered: 0, failed: 0, pending: 0 });

/** At most this many failure hint codes are listed, the most frequent first. */
export const TOP_FAILURES = 10;

/** The session counts of the window, shaped for the overview's charts and tables. */
export function summariseSessions(
  window: StatsWindow,
  rows: SessionCountRow[],
  messagesOf: (provider: string) => UserMessageTable | undefined = () => undefined,
) {
  const series = new Map(window.starts.map((start) => [start.getTime(), { start, ...noOutcomes() }]));
  const byOutcome = noOutcomes();
  const byProvider = new Map<string, OutcomeCounts & { provider: string; total: number }>();
  const failures = new Map<string, { hintCode: string; provider: string; count: number }>();
  for (const row of rows) {
    const outcome = outcomeOf(row.status, row.hintCode);
    byOutcome[outcome] += row.count;
    const bucket = series.get(row.bucket.getTime());
    if (bucket) bucket[outcome] += row.count;
    const provider = byProvider.get(row.provider) ?? { provider: row.provider, total: 0, ...noOutcomes() };
    provider[outcome] += row.count;
    provider.total += row.count;
    byProvider.set(row.provider, provider);
    if (row.status === 'failed') {
      const hintCode = row.hintCode ?? 'unknown';
      const key = `${row.provider}\u0000${hintCode}`;
      const failure = failures.get(key) ?? { hintCode, provider: row.provider, count: 0 };
      failure.count += row.count;
      failures.set(key, failure);
    }
  }
  const total = SESSION_OUTCOMES.reduce((sum, outcome) => sum + byOutcome[outcome], 0);
  const ended = total - byOutcome.pending;
  return {
    total,
    byOutcome,
    // Of the sessions that ended: a pending one may still complete.
    shareCompleted: ended === 0 ? null : byOutcome.complete / ended,
    series: [...series.values()],
    byProvider: [...byProvider.values()].sort((a, b) => b.total - a.total || a.provider.localeCompare(b.provider)),
    topFailures: [...failures.values()]
      .sort((a, b) => b.count - a.count || a.hintCode.localeCompare(b.hintCode))
      .slice(0, TOP_FAILURES)
      // The message a person saw beside a QR code: what the team's users read when they gave up.
      .map((failure) => {
        const userMessage = failureMessage(messagesOf, failure.provider, failure.hintCode);
        return { ...failure, userMessageCode: userMessage?.code ?? null, userMessage };
      }),
  };
}

/** The webhook messages of the window by status, per bucket and in all. */
export function summariseDeliveries(window: StatsWindow, rows: DeliveryCountRow[]) {
  const series = new Map(window.starts.map((start) => [start.getTime(), { start, ...noDeliveries() }]));
  const byOutcome = noDeliveries();
  for (const row of rows) {
    if (!isDeliveryStatus(row.status)) continue;
    byOutcome[row.status] += row.count;
    const bucket = series.get(row.bucket.getTime());
    if (bucket) bucket[row.status] += row.count;
  }
  return { total: byOutcome.delivered + byOutcome.failed + byOutcome.pending, byOutcome, series: [...series.values()] };
}

const isDeliveryStatus = (status: string): status is keyof DeliveryCounts =>
  status === 'delivered' || status === 'failed' || status === 'pending';

/** The message a provider shows for a failure beside a QR code; none for a provider no longer enabled. */
function failureMessage(
  messagesOf: (provider: string) => UserMessageTable | undefined,
  provider: string,
  hintCode: string,
): UserMessage | null {
  const table = messagesOf(provider);
  return (table && userMessageFor(table, 'failed', hintCode, { launch: 'qr' })) ?? null;
}
