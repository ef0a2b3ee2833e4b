import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../../../test/support/create-test-app.js';
import { createTeamWithKey } from '../../../test/support/fixtures.js';
import { protectionBackends, TEST_REDIS_URL } from '../../../test/support/protection-backends.js';
import type { ProtectionConfig } from '../../config/protection.config.js';
import { RedisConnection } from '../redis/redis-connection.js';
import { PostgresQuotaStore } from './postgres-quota.store.js';
import type { KeyLimits, QuotaStore } from './quota.store.js';
import { RedisQuotaStore } from './redis-quota.store.js';

// The per-minute counting of both stores, driven directly with chosen times (docs/protection.md,
// "Per-key rate limits"): 61 one-second buckets, conservative at the edges, constant in size.
const { backends } = await protectionBackends();
const SECOND = Date.UTC(2026, 10, 21, 10, 0, 0) / 1000;
const at = (seconds: number): Date => new Date((SECOND + seconds) * 1000);
const perMinute = (n: number): KeyLimits => ({ perMinute: n, monthly: null, addresses: null });
const ADDRESS = '198.51.100.7';

let database: TestDatabase;
let testApp: TestApp;
let redis: RedisConnection | null = null;
const prefix = `eidgw-test:${process.env.EIDGW_TEST_RUN ?? 'local'}:${randomBytes(4).toString('hex')}:`;

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

const storeOf = (name: string): QuotaStore =>
  name === 'Redis' ? new RedisQuotaStore(redis!) : new PostgresQuotaStore(testApp.app.get(DataSource));

/** How many buckets the key's minute occupies in the store: the space it takes. */
async function storedBuckets(name: string, apiKeyId: string): Promise<number> {
  if (name === 'Redis') return redis!.client!.hlen(`${prefix}quota:{${apiKeyId}}:minute`);
  const [row] = await testApp.app
    .get(DataSource)
    .query('SELECT cardinality(minute_buckets) AS n FROM api_key_usage WHERE api_key_id = $1', [apiKeyId]);
  return row.n;
}

describe.each(backends)('Per-minute buckets ($name)', ({ name }) => {
  let store: QuotaStore;
  let keyId: string;

  beforeAll(() => (store = storeOf(name)));
  beforeEach(async () => (keyId = (await createTeamWithKey(testApp.app)).apiKey.id));

  const consume = (when: Date, limits = perMinute(3)) => store.consume(keyId, ADDRESS, when, limits);

  it('should admit N in one second, refuse the next, and say when the oldest second stops counting', async () => {
    for (let i = 1; i <= 3; i++) expect(await consume(at(0.25))).toMatchObject({ accepted: true, recentCount: i, minuteFreesAt: at(61) });
    expect(await consume(at(0.5))).toMatchObject({ accepted: false, recentCount: 3, minuteFreesAt: at(61) });
  });

  it('should keep counting a second until 61 buckets have passed it: conservative, never generous', async () => {
    expect((await consume(at(0.9))).accepted).toBe(true);
    await consume(at(0.9));
    await consume(at(0.9));
    // 59.4 s after the requests: a 60 s window holds them, refused.
    expect((await consume(at(60.3))).accepted).toBe(false);
    // 60.05 s after: the window has let them go, but their bucket cannot tell 0.9 from 0.0, so still refused.
    expect((await consume(at(60.95))).accepted).toBe(false);
    expect(await consume(at(61))).toMatchObject({ accepted: true, recentCount: 1, minuteFreesAt: at(122) });
  });

  it('should never admit more than N in any 60 s of a steady stream, and admit N every 61 s', async () => {
    const accepted: number[] = [];
    // One request every 0.7 s for five minutes against a limit of 7.
    for (let ms = 0; ms < 300_000; ms += 700) {
      if ((await consume(at(ms / 1000), perMinute(7))).accepted) accepted.push(ms);
    }
    for (const start of accepted) expect(accepted.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(7);
    // Not starved either: about 7 per 61 s over 300 s (the same count on both stores).
    expect(accepted.length).toBe(35);
  }, 60_000);

  it('should take the same space at a limit of 10,000,000 after requests in every second', async () => {
    for (let second = 0; second < 150; second++) await consume(at(second + 0.5), perMinute(10_000_000));
    expect(await storedBuckets(name, keyId)).toBeLessThanOrEqual(61);
    expect(await consume(at(150.5), perMinute(10_000_000))).toMatchObject({ accepted: true, recentCount: 61, minuteFreesAt: at(151) });
  });

  it('should count a request from a replica whose clock lags into the newest second', async () => {
    await consume(at(10));
    expect(await consume(at(9.5))).toMatchObject({ accepted: true, recentCount: 2, minuteFreesAt: at(71) });
    expect((await consume(at(70.9))).recentCount).toBe(3);
    // Second 10 (both) has stopped counting; second 70 still counts.
    expect(await consume(at(71))).toMatchObject({ accepted: true, recentCount: 2, minuteFreesAt: at(131) });
  });

  it('should record nothing for a refused request', async () => {
    const limits: KeyLimits = { perMinute: 1, monthly: 10, addresses: null };
    await consume(at(0), limits);
    for (let i = 0; i < 4; i++) expect(await consume(at(30), limits)).toMatchObject({ accepted: false, recentCount: 1, monthCount: 1 });
    expect(await consume(at(61), limits)).toMatchObject({ accepted: true, recentCount: 1, monthCount: 2 });
  });
});
