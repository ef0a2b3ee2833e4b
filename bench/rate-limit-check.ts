import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import type { ProtectionConfig } from '../src/config/protection.config.js';
import { PostgresQuotaStore } from '../src/protection/rate-limits/postgres-quota.store.js';
import type { QuotaStore } from '../src/protection/rate-limits/quota.store.js';
import { RedisQuotaStore } from '../src/protection/rate-limits/redis-quota.store.js';
import { RedisConnection } from '../src/protection/redis/redis-connection.js';
import { PostgresBackendCpu } from './lib/postgres-cpu.js';
import { redisCpuMs } from './lib/redis-cpu.js';

/** One limit's figures: the check alone, as the service's stores run it. */
export interface CheckCost {
  store: 'PostgreSQL' | 'Redis';
  perMinute: number;
  checksPerSecond: number;
  accepted: number;
  refused: number;
  /** CPU of the store per check: PostgreSQL backends of this scenario, or the whole Redis server. */
  storeCpuUsPerCheck: number;
}

const CONCURRENCY = 10;

/**
 * The cost of the per-minute check at several limits (docs/performance.md): `CONCURRENCY` callers
 * consume for `seconds` on a fresh key per limit, so the limit of 60 is reached at once (its checks
 * refuse), 10,000 is reached within the step, 10,000,000 never. Monthly and IP limits are set too.
 */
export async function measureCheckCost(options: {
  databaseUrl: string;
  redisUrl: string | null;
  apiKeyIds: Record<number, string>;
  seconds: number;
}): Promise<CheckCost[]> {
  const results: CheckCost[] = [];
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: CONCURRENCY, application_name: 'bench-check' });
  // The store reaches TypeORM's pg pool (queryPrepared); this pool stands in for it.
  const dataSource = { driver: { master: pool } } as unknown as DataSource;
  const cpu = new PostgresBackendCpu(options.databaseUrl);
  await cpu.connect();
  await Promise.all(Array.from({ length: CONCURRENCY }, () => pool.query('SELECT 1')));
  const redis = options.redisUrl
    ? new RedisConnection({ redisUrl: options.redisUrl, redisKeyPrefix: `eidgw-bench:${randomBytes(4).toString('hex')}:` } as ProtectionConfig)
    : null;
  await redis?.onModuleInit();
  try {
    for (const [store, name] of [
      [new PostgresQuotaStore(dataSource), 'PostgreSQL'],
      ...(redis ? [[new RedisQuotaStore(redis.client!, redis.keyPrefix), 'Redis']] : []),
    ] as [QuotaStore, 'PostgreSQL' | 'Redis'][]) {
      for (const [perMinute, apiKeyId] of Object.entries(options.apiKeyIds)) {
        const limits = { perMinute: Number(perMinute), monthly: 100_000_000, addresses: 1_000 };
        const pgBefore = await cpu.snapshot('bench-check');
        const redisBefore = redis ? await redisCpuMs(redis.client!) : 0;
        let accepted = 0;
        let refused = 0;
        const until = Date.now() + options.seconds * 1000;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async (_, caller) => {
            while (Date.now() < until) {
              const usage = await store.consume(apiKeyId, `198.51.100.${caller + 1}`, new Date(), limits);
              if (usage.accepted) accepted++;
              else refused++;
            }
          }),
        );
        const checks = accepted + refused;
        const storeCpuMs = name === 'PostgreSQL' ? await cpu.since('bench-check', pgBefore) : (await redisCpuMs(redis!.client!)) - redisBefore;
        results.push({ store: name, perMinute: Number(perMinute), checksPerSecond: checks / options.seconds, accepted, refused, storeCpuUsPerCheck: (storeCpuMs * 1000) / checks });
      }
    }
  } finally {
    // The month keys would outlive the run by a month on a shared Redis.
    const keys = redis ? await redis.client!.keys(`${redis.keyPrefix}*`) : [];
    if (keys.length > 0) await redis!.client!.del(...keys);
    await redis?.onModuleDestroy();
    await cpu.close();
    await pool.end();
  }
  return results;
}
