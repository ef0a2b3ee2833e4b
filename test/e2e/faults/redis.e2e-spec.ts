import { faultSeconds, recordFigures } from '../../support/fault-lab.js';
import { admitted, count, describeRedisFaults, PER_MINUTE, useRedisFaultLab } from '../../support/redis-fault.js';
import { finalWebhooksOf, pause } from '../../support/session-load.js';
import { waitUntil } from '../../support/webhooks.js';

// docs/reliability.md, "Redis unreachable": the service keeps its counters in Redis through a proxy
// that is cut under load. The session load's key has no limits; a prober hammers a second key whose
// per-minute limit it exceeds, so 429s show the limits still hold while each process counts alone.
const OUTAGE_S = faultSeconds(8);

describeRedisFaults('Faults: Redis unreachable', () => {
  const redisLab = useRedisFaultLab();
  const { lab } = redisLab;

  it('should keep answering, count limits per process while Redis is away, say degraded, and share the counts again after', async () => {
    const { receiver } = lab.current;
    const { service, limited, probes, ready, restore, expectLimitsHeld } = await redisLab.start();
    const redisProxy = redisLab.proxy;
    const load = lab.current.load({ baseUrl: service.baseUrl, requestTimeoutMs: 8_000 });

    const cutAt = Date.now();
    await redisProxy.cut();
    await pause(1_500);
    const during = await ready();
    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({ status: 'warn', checks: { database: 'up', redis: 'degraded' } });
    await pause(Math.max(0, cutAt + OUTAGE_S * 1_000 - Date.now()));
    const { restoredAt, recovered, loadStoppedAt } = await restore(load);

    // While Redis was away the key's limit still refused, and this one process admitted at most the
    // limit in any 60 s (docs/protection.md, "When Redis is away").
    expectLimitsHeld(cutAt + 1_000, restoredAt);
    // Shared again: Redis's month count holds every admission, those counted alone included.
    await waitUntil(
      async () => (await redisLab.monthCount(limited.id)) === count(probes, admitted),
      'the month count in Redis',
      5_000,
    ).catch(() => undefined);
    expect(await redisLab.monthCount(limited.id)).toBe(count(probes, admitted));

    // The session load never needed Redis (its key has no limits) and lost nothing.
    const ledger = await finalWebhooksOf(load, receiver, { since: loadStoppedAt });
    expect(load.byStatus()['500']).toBeUndefined();
    expect(load.byStatus()['no answer']).toBeUndefined();
    expect(ledger.lost).toEqual([]);
    expect(ledger.duplicated).toEqual([]);
    expect(service.exitCode).toBeNull();

    const limitedDuring = `${count(probes, admitted, cutAt, restoredAt)} admitted / ${count(probes, (p) => p.status === 429, cutAt, restoredAt)} refused`;
    await recordFigures({
      fault: `Redis unreachable ${OUTAGE_S} s (connections cut, new ones refused)`,
      faultSeconds: (restoredAt - cutAt) / 1000,
      degradedSeconds: (recovered - cutAt) / 1000,
      requests: load.byStatus(),
      sessions: ledger.sessions,
      sessionsLost: ledger.lost.length,
      webhooksLost: ledger.lost.length,
      webhooksDuplicated: ledger.duplicated.length,
      note: `ready stayed 200 ("redis": "degraded"); a key over its limit of ${PER_MINUTE}/min during the cut: ${limitedDuring}; Redis's month count = every admission after (${count(probes, admitted)}); every final webhook in ${ledger.drainedSeconds.toFixed(0)} s after the load stopped`,
    });
  }, 660_000);
});
