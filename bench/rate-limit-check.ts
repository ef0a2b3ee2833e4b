import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { ProtectionConfig } from '../src/config/protection.config.js';
import { postgresPool } from '../src/database/sql-execution.js';
import { PostgresQuotaStore } from '../src/protection/rate-limits/postgres-quota.store.js';
import type { QuotaStore } from '../src/protection/rate-limits/quota.store.js';
import { RedisQuotaStore } from '../src/protection/rate-limits/redis-quota.store.js';
import { RedisConnection } from '../src/protection/redis/redis-connection.js';
import { PostgresBackendCpu } from './lib/postgres-cpu.js';
import { redisCpuMs } from './lib/redis-cpu.js';

/** One phase's figures at one limit: the check alone, as the service's stores run it. */
export interface CheckCost {
  store: 'PostgreSQL' | 'Redis';
  perMinute: number;
  /** Admitting (the window below the limit), refusing (the window full), or admitting with the process's allowance. */
  phase: 'admitting' | 'refusing' | 'allowance';
  checksPerSecond: number;
  accepted: number;
  refused: number;
  /** CPU of the store per check: PostgreSQL backends of this scenario, or the whole Redis server. */
  storeCpuUsPerCheck: number;
  /** CPU of this process per check: the service's side of it (the callers' loop is all else it does). */
  serviceCpuUsPerCheck: number;
}

const CONCURRENCY = 10;

/**
 * The cost of the per-minute check at several limits (docs/performance.md). Per limit, on a fresh key
 * with monthly and IP limits set too, `CONCURRENCY` callers consume: first while the window admits
 * (until the first refusal, or for `seconds` at a limit never reached), then for `seconds` with the
 * window full. A check that grew with the limit would cost more admitting at 10,000,000 than at
 * 10,000, and more refusing at 10,000 than at 60 (the old log did both). Last, per store, the key at
 * 10,000,000 is checked by a store with the service's allowance (docs/protection.md, "Allowance"):
 * what a busy key's check costs once most of its requests are admitted without a round trip.
 */
export async function measureCheckCost(options: {
  databaseUrl: string;
  redisUrl: string | null;
  apiKeyIds: Record<number, string>;
  seconds: number;
}): Promise<CheckCost[]> {
  const results: CheckCost[] = [];
  // No entities: the store runs its statements on TypeORM's pool, as in the service.
  const dataSource = await new DataSource({
    type: 'postgres',
    url: options.databaseUrl,
    poolSize: CONCURRENCY,
    extra: { application_name: 'bench-check' },
  }).initialize();
  const pool = postgresPool(dataSource);
  const cpu = new PostgresBackendCpu(options.databaseUrl);
  await cpu.connect();
  await Promise.all(Array.from({ length: CONCURRENCY }, () => pool.query('SELECT 1')));
  const redis = options.redisUrl
    ? await RedisConnection.open({
        redisUrl: options.redisUrl,
        redisKeyPrefix: `eidgw-bench:${randomBytes(4).toString('hex')}:`,
      } as ProtectionConfig)
    : null;
  await redis?.onModuleInit();
  const storeOf = (name: 'PostgreSQL' | 'Redis', maxBlock?: number): PostgresQuotaStore | RedisQuotaStore =>
    name === 'PostgreSQL' ? new PostgresQuotaStore(dataSource, maxBlock) : new RedisQuotaStore(redis!, maxBlock);
  try {
    for (const name of redis ? (['PostgreSQL', 'Redis'] as const) : (['PostgreSQL'] as const)) {
      // Blocks of 1: the per-request check itself, whose cost the limits are compared by (the allowance skips it).
      const perRequest = storeOf(name, 1);
      const storeCpuMs = async () => (name === 'PostgreSQL' ? sum(await cpu.snapshot('bench-check')) : redisCpuMs(redis!.client!));
      for (const [perMinute, apiKeyId] of Object.entries(options.apiKeyIds)) {
        const limits = { perMinute: Number(perMinute), monthly: 100_000_000, addresses: 1_000 };
        const phase = async (
          untilRefused: boolean,
          store: QuotaStore = perRequest,
        ): Promise<Omit<CheckCost, 'store' | 'perMinute' | 'phase'>> => {
          const cpuBefore = await storeCpuMs();
          const serviceCpuBefore = process.cpuUsage();
          const startedAt = Date.now();
          const until = startedAt + options.seconds * 1000;
          let accepted = 0;
          let refused = 0;
          await Promise.all(
            Array.from({ length: CONCURRENCY }, async (_, caller) => {
              while (Date.now() < until && !(untilRefused && refused > 0)) {
                const usage = await store.consume(apiKeyId, `198.51.100.${caller + 1}`, new Date(), limits);
                if (usage.accepted) accepted++;
                else refused++;
              }
            }),
          );
          const checks = accepted + refused;
          const serviceCpu = process.cpuUsage(serviceCpuBefore);
          return {
            checksPerSecond: checks / ((Date.now() - startedAt) / 1000),
            accepted,
            refused,
            storeCpuUsPerCheck: (((await storeCpuMs()) - cpuBefore) * 1000) / checks,
            serviceCpuUsPerCheck: (serviceCpu.user + serviceCpu.system) / checks,
          };
        };
        const reachable = limits.perMinute <= 10_000;
        const admitting = await phase(reachable);
        // 60 admissions are too few to time; the window is full after them all the same.
        if (limits.perMinute > 60) results.push({ store: name, perMinute: limits.perMinute, phase: 'admitting', ...admitting });
        if (reachable) results.push({ store: name, perMinute: limits.perMinute, phase: 'refusing', ...(await phase(false)) });
        if (!reachable) {
          const withAllowance = storeOf(name);
          results.push({ store: name, perMinute: limits.perMinute, phase: 'allowance', ...(await phase(false, withAllowance)) });
          await withAllowance.onModuleDestroy();
        }
      }
    }
  } finally {
    // The month keys would outlive the run by a month on a shared Redis.
    const keys = redis ? await redis.client!.keys(`${redis.keyPrefix}*`) : [];
    if (keys.length > 0) await redis!.client!.del(...keys);
    await redis?.onModuleDestroy();
    await cpu.close();
    await dataSource.destroy();
  }
  return results;
}

const sum = (values: Map<number, number>): number => [...values.values()].reduce((a, b) => a + b, 0);
