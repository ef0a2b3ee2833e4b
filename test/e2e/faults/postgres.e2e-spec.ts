import { describeFaults, faultSeconds, recordFigures, useFaultLab } from '../../support/fault-lab.js';
import { finalWebhooksOf, pause } from '../../support/session-load.js';
import { waitUntil } from '../../support/webhooks.js';

// docs/reliability.md, "PostgreSQL unreachable": the database is cut (every connection destroyed, new
// ones refused) under a load of simulator sessions, then comes back. REQUEST_TIMEOUT is 5 s here.
const OUTAGE_S = faultSeconds(8);

describeFaults('Faults: PostgreSQL unreachable', () => {
  const lab = useFaultLab();

  it('should answer 503 service_unavailable with Retry-After, stay live and not ready, then recover by itself and lose no webhook', async () => {
    const { pgProxy, receiver, key } = lab.current;
    const service = await lab.current.start();
    // A request not answered within 15 s counts as a hang ("no answer").
    const load = lab.current.load({ baseUrl: service.baseUrl, requestTimeoutMs: 15_000 });
    await pause(3_000);

    const cutAt = Date.now();
    await pgProxy.cut();
    await pause(1_000);
    const probe = async (path: string, init: RequestInit = {}) => {
      const at = Date.now();
      const res = await fetch(`${service.baseUrl}${path}`, { ...init, headers: { 'x-api-key': key, ...init.headers } });
      return { res, ms: Date.now() - at, body: await res.text() };
    };
    const live = await probe('/health/live');
    const ready = await probe('/health/ready');
    const start = await probe('/api/v1/auth/simulator/start', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ endUserIp: '192.0.2.1' }),
    });
    expect(live.res.status).toBe(200);
    expect(ready.res.status).toBe(503);
    expect(start.res.status).toBe(503);
    expect(start.res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(start.res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(JSON.parse(start.body)).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(start.ms).toBeLessThan(5_000);

    await pause(Math.max(0, cutAt + OUTAGE_S * 1_000 - Date.now()));
    await pgProxy.restore();
    const restoredAt = Date.now();
    // Normal within 5 s, without a restart: the same process answers a start with 200.
    const recovered = await waitUntil(
      async () => {
        const res = await probe('/api/v1/auth/simulator/start', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ endUserIp: '192.0.2.1' }),
        });
        return res.res.status === 200 && Date.now();
      },
      'a start answered 200 after the database returned',
      5_000,
    );
    await pause(3_000);
    await load.stop();
    const loadStoppedAt = Date.now();

    // Every session the service accepted ends (approved, or unscanned past SIMULATOR_START_TIMEOUT)
    // and its final webhook arrives: the collector and dispatcher resumed by themselves.
    const ledger = await finalWebhooksOf(load, receiver, { since: loadStoppedAt });
    const during = load.byStatus(cutAt, restoredAt);
    expect(Object.keys(during).filter((status) => !['200', '503'].includes(status))).toEqual([]);
    expect(load.byStatus()['500']).toBeUndefined();
    expect(load.byStatus()['no answer']).toBeUndefined();
    expect(ledger.lost).toEqual([]);
    expect(ledger.duplicated).toEqual([]);
    expect(service.exitCode).toBeNull();

    await recordFigures({
      fault: `PostgreSQL unreachable ${OUTAGE_S} s (connections cut, new ones refused)`,
      faultSeconds: (restoredAt - cutAt) / 1000,
      degradedSeconds: (recovered - cutAt) / 1000,
      requests: load.byStatus(),
      sessions: ledger.sessions,
      sessionsLost: ledger.lost.length,
      webhooksLost: ledger.lost.length,
      webhooksDuplicated: ledger.duplicated.length,
      note: `back to normal ${((recovered - restoredAt) / 1000).toFixed(1)} s after the database returned; ${ledger.redelivered} redeliveries under the same id; every final webhook in ${ledger.drainedSeconds.toFixed(0)} s after the load stopped`,
    });
  }, 480_000);

  it('should answer 503 within REQUEST_TIMEOUT when the database hangs (a partition: connections open, nothing answers)', async () => {
    const { pgProxy, key } = lab.current;
    const service = await lab.current.start({ DATABASE_QUERY_TIMEOUT: '2s' });
    const start = async () => {
      const at = Date.now();
      const res = await fetch(`${service.baseUrl}/api/v1/auth/simulator/start`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ endUserIp: '192.0.2.1' }),
        signal: AbortSignal.timeout(15_000),
      });
      await res.arrayBuffer();
      return { status: res.status, ms: Date.now() - at };
    };
    // Connections in the pool first, so that the requests meet open connections that carry nothing.
    expect((await Promise.all([start(), start(), start()])).map((r) => r.status)).toEqual([200, 200, 200]);
    await pgProxy.blackhole();
    const hung = await Promise.all([start(), start(), start()]);
    expect(hung.map((r) => r.status)).toEqual([503, 503, 503]);
    // DATABASE_QUERY_TIMEOUT is 2 s here, REQUEST_TIMEOUT 5 s.
    for (const { ms } of hung) expect(ms).toBeLessThan(5_000);
    await pgProxy.restore();
    await waitUntil(async () => (await start()).status === 200, 'a start answered 200 after the partition', 5_000);
    expect(service.exitCode).toBeNull();
  }, 120_000);
});
