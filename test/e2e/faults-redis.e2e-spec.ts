import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describeFaults, faultSeconds, recordFigures, useFaultLab } from '../support/fault-lab.js';
import { protectionBackends, TEST_REDIS_URL } from '../support/protection-backends.js';
import { finalWebhooksOf, pause } from '../support/session-load.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitUntil } from '../support/webhooks.js';

// docs/reliability.md, "Redis unreachable": the service keeps its counters in Redis through a proxy
// that is cut under load. The session load's key has no limits; a prober hammers a second key whose
// per-minute limit it exceeds, so 429s show the limits still hold while each process counts alone.
const OUTAGE_S = faultSeconds(8);
const PER_MINUTE = 30;
const { redisSkipped } = await protectionBackends();
const describeRedisFaults = redisSkipped ? describe.skip : describeFaults;

interface Probe {
  status: number;
  at: number;
}

/** Requests of the limited key, one after the other: a 404 (no such session) is admitted, a 429 refused. */
function startProber(baseUrl: string, key: string): { probes: Probe[]; stop(): Promise<void> } {
  const probes: Probe[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const at = Date.now();
      const status = await fetch(`${baseUrl}/api/v1/auth/${randomUUID()}/poll`, {
        method: 'POST',
        headers: { 'x-api-key': key },
        signal: AbortSignal.timeout(8_000),
      })
        .then(async (res) => (await res.arrayBuffer(), res.status))
        .catch(() => 0);
      probes.push({ status, at });
      await pause(20);
    }
  })();
  return {
    probes,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

const count = (probes: Probe[], test: (p: Probe) => boolean, from = 0, to = Infinity) =>
  probes.filter((p) => p.at >= from && p.at < to && test(p)).length;
const admitted = (p: Probe) => p.status !== 429 && p.status > 0 && p.status < 500;

describeRedisFaults('Faults: Redis unreachable', () => {
  const lab = useFaultLab();
  const prefix = `eidgw-test:${process.env.EIDGW_TEST_RUN ?? 'local'}:${randomBytes(4).toString('hex')}:`;
  let redisProxy: TcpProxy;
  let redis: Redis;
  const probers: { stop(): Promise<void> }[] = [];
  beforeAll(async () => {
    const target = new URL(TEST_REDIS_URL);
    redisProxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 6379) });
    redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    await Promise.all(probers.map((prober) => prober.stop()));
    await redisProxy?.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('should keep answering, count limits per process while Redis is away, say degraded, and share the counts again after', async () => {
    const { receiver, teamId } = lab.current;
    const limited = await lab.current.cli('keys', 'create', '--team', teamId, '--per-minute', String(PER_MINUTE));
    const service = await lab.current.start({ REDIS_URL: redisProxy.rewrite(TEST_REDIS_URL), REDIS_KEY_PREFIX: prefix });
    const ready = async () => {
      const res = await fetch(`${service.baseUrl}/health/ready`);
      return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, unknown> } };
    };
    expect((await ready()).body.checks.redis).toBe('up');
    const load = lab.current.load({ baseUrl: service.baseUrl, requestTimeoutMs: 8_000 });
    const prober = startProber(service.baseUrl, limited.key);
    probers.push(prober);
    await waitUntil(async () => count(prober.probes, (p) => p.status === 429) > 0, 'the limited key to reach its limit', 30_000).catch(
      (error: Error) => {
        const statuses = prober.probes.reduce<Record<number, number>>((all, p) => ({ ...all, [p.status]: (all[p.status] ?? 0) + 1 }), {});
        throw new Error(`${error.message}; the prober's answers: ${JSON.stringify(statuses)}`);
      },
    );

    const cutAt = Date.now();
    await redisProxy.cut();
    await pause(1_500);
    const during = await ready();
    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({ status: 'warn', checks: { database: 'up', redis: 'degraded' } });
    await pause(Math.max(0, cutAt + OUTAGE_S * 1_000 - Date.now()));
    await redisProxy.restore();
    const restoredAt = Date.now();
    const recovered = await waitUntil(
      async () => (await ready()).body.checks.redis === 'up' && Date.now(),
      'readiness to say Redis is up',
      10_000,
    );
    await pause(3_000);
    await prober.stop();
    await load.stop();
    const loadStoppedAt = Date.now();

    // While Redis was away the key's limit still refused, and this one process admitted at most the
    // limit in any 60 s (docs/protection.md, "When Redis is away").
    const { probes } = prober;
    expect(count(probes, (p) => p.status === 429, cutAt + 1_000, restoredAt)).toBeGreaterThan(0);
    for (const { at } of probes) expect(count(probes, admitted, at, at + 60_000)).toBeLessThanOrEqual(PER_MINUTE);
    expect(count(probes, (p) => p.status === 0 || p.status >= 500)).toBe(0);
    // Shared again: Redis's month count holds every admission, those counted alone included.
    const usageKey = `${prefix}quota:{${limited.id}}:usage`;
    await waitUntil(
      async () => Number(await redis.hget(usageKey, 'requests')) === count(probes, admitted),
      'the month count in Redis',
      5_000,
    ).catch(() => undefined);
    expect(Number(await redis.hget(usageKey, 'requests'))).toBe(count(probes, admitted));

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
