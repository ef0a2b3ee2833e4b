import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describeFaults, useFaultLab } from './fault-lab.js';
import { protectionBackends, TEST_REDIS_URL } from './protection-backends.js';
import { pause, type SessionLoad } from './session-load.js';
import type { ServiceProcess } from './service-process.js';
import { TcpProxy } from './tcp-proxy.js';
import { waitUntil } from './webhooks.js';

/** The limited key's per-minute limit: the prober goes over it, so 429s show the limits hold. */
export const PER_MINUTE = 30;
const { redisSkipped } = await protectionBackends();
/** Redis fault tests need a PostgreSQL server (describeFaults) and a Redis; skipped, saying so, without. */
export const describeRedisFaults = redisSkipped ? describe.skip : describeFaults;

export interface Probe {
  status: number;
  at: number;
}

export const count = (probes: Probe[], test: (p: Probe) => boolean, from = 0, to = Infinity) =>
  probes.filter((p) => p.at >= from && p.at < to && test(p)).length;
/** A 404 (no such session) is admitted, a 429 refused. */
export const admitted = (p: Probe) => p.status !== 429 && p.status > 0 && p.status < 500;

export interface RedisFaultService {
  service: ServiceProcess;
  limited: Record<string, string>;
  probes: Probe[];
  ready: () => Promise<{ status: number; body: { status: string; checks: Record<string, unknown> } }>;
  /**
   * Restores Redis, waits until readiness says up, gives the shared counts 3 s, then stops the
   * prober and `load`: when each happened.
   */
  restore: (load: SessionLoad) => Promise<{ restoredAt: number; recovered: number; loadStoppedAt: number }>;
  /** The key's limit held: refusals between `from` and `to`, no 60 s admitting more than the limit, no 5xx or unanswered probe. */
  expectLimitsHeld: (from: number, to: number) => void;
}

/**
 * Registers a fault lab (useFaultLab) with a proxy in front of the machine's Redis and a key prefix of
 * its own (deleted after the file). `start()` starts the service on Redis through the proxy and a
 * prober: requests of a key with a per-minute limit of PER_MINUTE, one after the other, until it
 * gets 429s (docs/reliability.md, "Redis unreachable").
 */
export function useRedisFaultLab() {
  const lab = useFaultLab();
  const prefix = `eidgw-test:${process.env.EIDGW_TEST_RUN ?? 'local'}:${randomBytes(4).toString('hex')}:`;
  let redisProxy: TcpProxy;
  let redis: Redis;
  const stops: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    const target = new URL(TEST_REDIS_URL);
    redisProxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 6379) });
    redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    await Promise.all(stops.map((stop) => stop()));
    await redisProxy?.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  const start = async (): Promise<RedisFaultService> => {
    const limited = await lab.current.cli('keys', 'create', '--team', lab.current.teamId, '--per-minute', String(PER_MINUTE));
    const service = await lab.current.start({ REDIS_URL: redisProxy.rewrite(TEST_REDIS_URL), REDIS_KEY_PREFIX: prefix });
    const ready = async () => {
      const res = await fetch(`${service.baseUrl}/health/ready`);
      return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, unknown> } };
    };
    const probes: Probe[] = [];
    let running = true;
    const loop = (async () => {
      while (running) {
        const at = Date.now();
        const status = await fetch(`${service.baseUrl}/api/v1/auth/${randomUUID()}/poll`, {
          method: 'POST',
          headers: { 'x-api-key': limited.key },
          signal: AbortSignal.timeout(8_000),
        })
          .then(async (res) => (await res.arrayBuffer(), res.status))
          .catch(() => 0);
        probes.push({ status, at });
        await pause(20);
      }
    })();
    const stopProber = async () => {
      running = false;
      await loop;
    };
    stops.push(stopProber);
    await waitUntil(async () => count(probes, (p) => p.status === 429) > 0, 'the limited key to reach its limit', 30_000).catch(
      (error: Error) => {
        const statuses = probes.reduce<Record<number, number>>((all, p) => ({ ...all, [p.status]: (all[p.status] ?? 0) + 1 }), {});
        throw new Error(`${error.message}; the prober's answers: ${JSON.stringify(statuses)}`);
      },
    );
    const restore = async (load: SessionLoad) => {
      await redisProxy.restore();
      const restoredAt = Date.now();
      const recovered = await waitUntil(
        async () => (await ready()).body.checks.redis === 'up' && Date.now(),
        'readiness to say Redis is up',
        10_000,
      );
      await pause(3_000);
      await stopProber();
      await load.stop();
      return { restoredAt, recovered, loadStoppedAt: Date.now() };
    };
    const expectLimitsHeld = (from: number, to: number) => {
      expect(count(probes, (p) => p.status === 429, from, to)).toBeGreaterThan(0);
      for (const { at } of probes) expect(count(probes, admitted, at, at + 60_000)).toBeLessThanOrEqual(PER_MINUTE);
      expect(count(probes, (p) => p.status === 0 || p.status >= 500)).toBe(0);
    };
    return { service, limited, probes, ready, restore, expectLimitsHeld };
  };

  return {
    lab,
    get proxy(): TcpProxy {
      return redisProxy;
    },
    get redis(): Redis {
      return redis;
    },
    /** Redis's month count of a key, as the shared counters hold it. */
    monthCount: async (apiKeyId: string) => Number(await redis.hget(`${prefix}quota:{${apiKeyId}}:usage`, 'requests')),
    start,
  };
}
