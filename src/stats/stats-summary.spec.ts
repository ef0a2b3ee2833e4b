import type { UserMessageTable } from '../eid-providers/user-messages.js';
import { statsWindow } from './stats-range.js';
import { summariseDeliveries, summariseSessions, TOP_FAILURES } from './stats-summary.js';

// A provider's messages as the port gives them (docs/providers.md): one for a cancel, a fallback for the rest.
const MESSAGES: UserMessageTable = {
  appName: 'Test ID',
  texts: {
    M1: { sv: 'Avbrutet.', en: 'Cancelled.', nb: 'Avbrutt.', da: 'Afbrudt.', fi: 'Keskeytetty.' },
    M9: { sv: 'Fel.', en: 'Error.', nb: 'Feil.', da: 'Fejl.', fi: 'Virhe.' },
    P: { sv: 'Vänta.', en: 'Wait.', nb: 'Vent.', da: 'Vent.', fi: 'Odota.' },
  },
  pending: {},
  failed: { CANCELED: () => 'M1' },
  fallback: { pending: 'P', failed: 'M9' },
};

describe('summariseSessions', () => {
  const window = statsWindow('24h', new Date('2026-11-27T12:30:00.000Z'));
  const at = (hour: number) => new Date(`2026-11-27T${String(hour).padStart(2, '0')}:00:00.000Z`);

  it('should put each count in its bucket, outcome and provider, and leave empty buckets as zeros', () => {
    const summary = summariseSessions(window, [
      { bucket: at(12), provider: 'bankid', status: 'complete', hintCode: null, count: 3 },
      { bucket: at(12), provider: 'bankid', status: 'failed', hintCode: 'userCancel', count: 1 },
      { bucket: at(10), provider: 'freja', status: 'failed', hintCode: 'expiredTransaction', count: 2 },
      { bucket: at(10), provider: 'freja', status: 'pending', hintCode: 'started', count: 4 },
    ]);
    expect(summary.total).toBe(10);
    expect(summary.byOutcome).toEqual({ complete: 3, failed: 0, cancelled: 1, expired: 2, pending: 4 });
    // Of the six that ended, three completed.
    expect(summary.shareCompleted).toBe(0.5);
    expect(summary.series).toHaveLength(24);
    expect(summary.series.at(-1)).toMatchObject({ complete: 3, cancelled: 1 });
    expect(summary.series.at(-3)).toMatchObject({ expired: 2, pending: 4 });
    expect(summary.series.at(-2)).toMatchObject({ complete: 0, failed: 0, cancelled: 0, expired: 0, pending: 0 });
    expect(summary.byProvider.map((row) => [row.provider, row.total])).toEqual([
      ['freja', 6],
      ['bankid', 4],
    ]);
  });

  it("should list the most frequent failures first with each provider's user message, at most ten", () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({
      bucket: at(11),
      provider: 'bankid',
      status: 'failed',
      hintCode: `code${i}`,
      count: i + 1,
    }));
    rows.push({ bucket: at(11), provider: 'freja', status: 'failed', hintCode: 'CANCELED', count: 50 });
    const { topFailures } = summariseSessions(window, rows, (provider) => (provider === 'freja' ? MESSAGES : undefined));
    expect(topFailures).toHaveLength(TOP_FAILURES);
    expect(topFailures[0]).toEqual({
      provider: 'freja',
      hintCode: 'CANCELED',
      count: 50,
      userMessageCode: 'M1',
      userMessage: { code: 'M1', sv: 'Avbrutet.', en: 'Cancelled.' },
    });
    // A provider this deployment no longer enables has no words to show.
    expect(topFailures[1]).toEqual({ provider: 'bankid', hintCode: 'code11', count: 12, userMessageCode: null, userMessage: null });
  });

  it('should have no share completed while nothing ended', () => {
    expect(summariseSessions(window, []).shareCompleted).toBeNull();
  });
});

describe('summariseDeliveries', () => {
  it('should count messages by status per bucket and ignore a status it does not know', () => {
    const window = statsWindow('7d', new Date('2026-11-27T12:30:00.000Z'));
    const summary = summariseDeliveries(window, [
      { bucket: new Date('2026-11-27T00:00:00.000Z'), status: 'delivered', count: 5 },
      { bucket: new Date('2026-11-21T00:00:00.000Z'), status: 'failed', count: 1 },
      { bucket: new Date('2026-11-21T00:00:00.000Z'), status: 'other', count: 9 },
    ]);
    expect(summary.total).toBe(6);
    expect(summary.series[0]).toMatchObject({ failed: 1, delivered: 0 });
    expect(summary.series[6]).toMatchObject({ delivered: 5 });
  });
});
