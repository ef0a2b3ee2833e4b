import { faultSeconds, recordFigures } from '../../support/fault-lab.js';
import { admitted, count, describeRedisFaults, PER_MINUTE, useRedisFaultLab } from '../../support/redis-fault.js';
import { finalWebhooksOf, pause } from '../../support/session-load.js';
import { waitUntil } from '../../support/webhooks.js';

// docs/reliability.md, "Redis slow or partitioned": the connection stays open but Redis answers late
// (the proxy holds each chunk 1.5 s each way: 3 s a command, past the client's 2 s timeout), then not
// at all (a blackhole). Once a command has timed out, no request may wait on Redis again until it
// answers: the service sends it nothing but the probe's PINGs, says degraded all along, and shares
// the counts again when Redis is fast.
const OUTAGE_S = faultSeconds(10);
const HOLD_MS = 1_500;

/** Command names in what a Redis client sent (RESP arrays of bulk strings). */
const commandsIn = (chunk: Buffer): string[] =>
  [...chunk.toString('latin1').matchAll(/\*\d+\r\n\$\d+\r\n([A-Za-z]+)\r\n/g)].map(([, name]) => name.toLowerCase());

describeRedisFaults('Faults: Redis slow, then partitioned', () => {
  const redisLab = useRedisFaultLab();
  const { lab } = redisLab;

  it('should not wait on a Redis that answers late or not at all, say degraded throughout, and share the counts again after', async () => {
    const { receiver } = lab.current;
    const { service, limited, probes, ready, restore, expectLimitsHeld } = await redisLab.start();
    const proxy = redisLab.proxy;
    const load = lab.current.load({ baseUrl: service.baseUrl, requestTimeoutMs: 8_000 });
    const asked: { at: number; command: string }[] = [];
    proxy.onClientData = (chunk) => asked.push(...commandsIn(chunk).map((command) => ({ at: Date.now(), command })));

    const slowAt = Date.now();
    proxy.delay(HOLD_MS);
    const degradedAt = await waitUntil(
      async () => (await ready()).body.checks.redis === 'degraded' && Date.now(),
      'readiness to say Redis is degraded',
      15_000,
    );
    const checks: { status: number; redis: unknown }[] = [];
    const watchReadiness = async (until: number) => {
      while (Date.now() < until) {
        const { status, body } = await ready();
        checks.push({ status, redis: body.checks.redis });
        await pause(500);
      }
    };
    await watchReadiness(slowAt + (OUTAGE_S * 1_000) / 2);
    await proxy.blackhole();
    await watchReadiness(slowAt + OUTAGE_S * 1_000);
    const { restoredAt, recovered, loadStoppedAt } = await restore(load);
    proxy.onClientData = null;

    // Degraded from the first command that timed out until Redis answered again, and still ready.
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.filter((check) => check.status !== 200 || check.redis !== 'degraded')).toEqual([]);
    // Meanwhile no request asked Redis (a second's margin for commands already on their way).
    const whileDegraded = asked.filter(({ at }) => at > degradedAt + 1_000 && at < restoredAt);
    expect(whileDegraded.filter(({ command }) => command !== 'ping')).toEqual([]);
    // Every request answered, none with a 5xx, and the key's limit still refused while counted alone.
    expect(load.byStatus()['500']).toBeUndefined();
    expect(load.byStatus()['503']).toBeUndefined();
    expect(load.byStatus()['no answer']).toBeUndefined();
    expectLimitsHeld(degradedAt, restoredAt);
    // Shared again: Redis's month count holds every admission. The command that timed out may still
    // have run in Redis when its bytes arrived: counted there and alone, once too many (conservative).
    await waitUntil(
      async () => (await redisLab.monthCount(limited.id)) >= count(probes, admitted),
      'the month count in Redis',
      5_000,
    ).catch(() => undefined);
    const monthCount = await redisLab.monthCount(limited.id);
    expect(monthCount).toBeGreaterThanOrEqual(count(probes, admitted));
    expect(monthCount).toBeLessThanOrEqual(count(probes, admitted) + 1);

    const ledger = await finalWebhooksOf(load, receiver, { since: loadStoppedAt });
    expect(ledger.lost).toEqual([]);
    expect(ledger.duplicated).toEqual([]);
    expect(service.exitCode).toBeNull();

    const limitedDuring = `${count(probes, admitted, slowAt, restoredAt)} admitted / ${count(probes, (p) => p.status === 429, slowAt, restoredAt)} refused`;
    await recordFigures({
      fault: `Redis slow (${(2 * HOLD_MS) / 1000} s a command, past its 2 s timeout) ${OUTAGE_S / 2} s, then partitioned (no answer) ${OUTAGE_S / 2} s`,
      faultSeconds: (restoredAt - slowAt) / 1000,
      degradedSeconds: (recovered - slowAt) / 1000,
      requests: load.byStatus(),
      sessions: ledger.sessions,
      sessionsLost: ledger.lost.length,
      webhooksLost: ledger.lost.length,
      webhooksDuplicated: ledger.duplicated.length,
      note: `degraded ${((degradedAt - slowAt) / 1000).toFixed(1)} s after Redis slowed; ready stayed 200 ("redis": "degraded") in ${checks.length} checks; while degraded the service sent Redis ${whileDegraded.length} commands, all PINGs; slowest answer during the fault ${(load.slowest(slowAt, restoredAt) / 1000).toFixed(1)} s; a key over its limit of ${PER_MINUTE}/min: ${limitedDuring}; Redis's month count after: ${monthCount} for ${count(probes, admitted)} admissions; every final webhook in ${ledger.drainedSeconds.toFixed(0)} s after the load stopped`,
    });
  }, 600_000);
});
