import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../../../test/support/create-test-app.js';
import { createTeamWithKey } from '../../../test/support/fixtures.js';
import { protectionBackends, TEST_REDIS_URL } from '../../../test/support/protection-backends.js';
import type { ProtectionConfig } from '../../config/protection.config.js';
import { RedisConnection } from '../redis/redis-connection.js';
import { PostgresQuotaStore } from './postgres-quota.store.js';
import type { KeyLimits } from './quota.store.js';
import { RedisQuotaStore } from './redis-quota.store.js';

// What allowances cost over the minute (docs/protection.md, "Allowance"): four stores stand for four
// service processes sharing one database or one Redis, and a steady stream of requests, spread over
// them in turn, runs for minutes of the service clock. Blocks end with their second; what a block did
// not use must not stay counted in the minute, or traffic under the limit is refused.
const { backends } = await protectionBackends();
const START = Date.UTC(2026, 10, 21, 10, 0, 0);
const PROCESSES = 4;
const LIMIT = 24_000;
const limits: KeyLimits = { perMinute: LIMIT, monthly: null, addresses: null };
const prefix = `eidgw-test:${process.env.EIDGW_TEST_RUN ?? 'local'}:${randomBytes(4).toString('hex')}:`;

let database: TestDatabase;
let testApp: TestApp;
let redis: RedisConnection | null = null;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await createTestApp(database.env);
  if (backends.some((b) => b.name === 'Redis')) {
    redis = await RedisConnection.open({ redisUrl: TEST_REDIS_URL, redisKeyPrefix: prefix } as ProtectionConfig);
    await redis.onModuleInit();
  }
});

afterAll(async () => {
  if (redis?.client) {
    const keys = await redis.client.keys(`${prefix}*`);
    if (keys.length > 0) await redis.client.del(...keys);
    await redis.onModuleDestroy();
  }
  await testApp?.close();
  await database?.drop();
});

/** Admission times (ms of the service clock) of `perSecond` requests a second for `seconds`, spread over the processes. */
async function stream(name: string, perSecond: number, seconds: number): Promise<{ admitted: number[]; refused: number }> {
  const keyId = (await createTeamWithKey(testApp.app)).apiKey.id;
  const processes = Array.from({ length: PROCESSES }, () =>
    name === 'Redis' ? new RedisQuotaStore(redis!) : new PostgresQuotaStore(testApp.app.get(DataSource)),
  );
  const admitted: number[] = [];
  let refused = 0;
  const total = perSecond * seconds;
  for (let i = 0; i < total; i++) {
    const at = START + Math.floor((i * 1000) / perSecond);
    const usage = await processes[i % PROCESSES].consume(keyId, '198.51.100.7', new Date(at), limits);
    if (usage.accepted) admitted.push(at);
    else refused++;
  }
  await Promise.all(processes.map((store) => store.onModuleDestroy()));
  return { admitted, refused };
}

/** The fewest and most admissions in any 60 s window that starts at a whole second after the first minute. */
function windows(admitted: number[], seconds: number): { fewest: number; most: number } {
  let fewest = Infinity;
  let most = 0;
  for (let s = 61; s + 60 <= seconds; s++) {
    const from = START + s * 1000;
    const n = admitted.filter((t) => t >= from && t < from + 60_000).length;
    fewest = Math.min(fewest, n);
    most = Math.max(most, n);
  }
  return { fewest, most };
}

describe.each(backends)('Allowance waste over the minute ($name store)', ({ name }) => {
  it('should refuse nothing of a stream at 80% of the limit across four processes', async () => {
    const { admitted, refused } = await stream(name, (LIMIT * 0.8) / 60, 150);
    process.stderr.write(`[allowance waste] ${name}, 80% of the limit: ${admitted.length} admitted, ${refused} refused\n`);
    expect(refused).toBe(0);
  }, 120_000);

  it('should admit nearly the whole limit in every minute of a stream over it, and never more', async () => {
    const seconds = 150;
    const { admitted } = await stream(name, (LIMIT * 1.5) / 60, seconds);
    const { fewest, most } = windows(admitted, seconds);
    process.stderr.write(
      `[allowance waste] ${name}, 150% of the limit: every 60 s window admitted ${fewest}–${most} of ${LIMIT} (${((100 * fewest) / LIMIT).toFixed(1)}–${((100 * most) / LIMIT).toFixed(1)}%)\n`,
    );
    expect(most).toBeLessThanOrEqual(LIMIT);
    expect(fewest).toBeGreaterThanOrEqual(LIMIT * 0.95);
  }, 120_000);
});
