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

// Allowances (docs/protection.md, "Allowance"): two stores stand for two service processes sharing
// one database or one Redis; each admits from the blocks it reserved, and the store counted those blocks first.
const { backends } = await protectionBackends();
const NOW = new Date(Date.UTC(2026, 10, 21, 10, 0, 0, 250));
const ADDRESS = '198.51.100.7';
const prefix = `eidgw-test:${process.env.EIDGW_TEST_RUN ?? 'local'}:${randomBytes(4).toString('hex')}:`;

let database: TestDatabase;
let testApp: TestApp;
let dataSource: DataSource;
let redis: RedisConnection | null = null;
let keyId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await createTestApp(database.env);
  dataSource = testApp.app.get(DataSource);
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

beforeEach(async () => (keyId = (await createTeamWithKey(testApp.app)).apiKey.id));

type Store = PostgresQuotaStore | RedisQuotaStore;

/** Sends requests in rounds of ten to each store at once until a whole round is refused; answers how many were admitted. */
async function admittedUntilRefused(stores: Store[], limits: KeyLimits, address = ADDRESS): Promise<number> {
  let admitted = 0;
  for (;;) {
    const round = await Promise.all(
      stores.flatMap((store) => Array.from({ length: 10 }, () => store.consume(keyId, address, NOW, limits))),
    );
    const accepted = round.filter((usage) => usage.accepted).length;
    if (accepted === 0) return admitted;
    admitted += accepted;
  }
}

describe.each(backends)('Local allowances of the $name store', ({ name }) => {
  /** One service process's store; `maxBlock` stands in for a busier process's larger blocks. */
  const processStore = (maxBlock?: number): Store =>
    name === 'Redis' ? new RedisQuotaStore(redis!, maxBlock) : new PostgresQuotaStore(dataSource, maxBlock);

  /** What the store has counted for the key: the minute's buckets and the month. */
  async function storedUsage(): Promise<{ minute: number; month: number }> {
    if (name === 'Redis') {
      const buckets = await redis!.client!.hvals(`${prefix}quota:{${keyId}}:minute`);
      const month = await redis!.client!.hget(`${prefix}quota:{${keyId}}:usage`, 'requests');
      return { minute: buckets.reduce((sum, n) => sum + Number(n), 0), month: Number(month ?? 0) };
    }
    const [row] = await dataSource.query(
      `SELECT (SELECT coalesce(sum(n), 0) FROM unnest(minute_buckets) n)::integer AS minute, month_requests AS month FROM api_key_usage WHERE api_key_id = $1`,
      [keyId],
    );
    return row;
  }

  it('should never let more than N through across two processes, even asking for blocks of 1,000', async () => {
    const processes = [processStore(1_000), processStore(1_000)];
    const admitted = await admittedUntilRefused(processes, { perMinute: 50_000, monthly: null, addresses: null });
    expect(admitted).toBeLessThanOrEqual(50_000);
    // Both kept admitting from their blocks until the exact check near the limit took over.
    expect(admitted).toBeGreaterThan(50_000 - 2 * 1_000);
    expect((await storedUsage()).minute).toBe(50_000);
    await Promise.all(processes.map((store) => store.onModuleDestroy()));
  });

  it('should admit exactly the monthly limit across two processes', async () => {
    const processes = [processStore(), processStore()];
    expect(await admittedUntilRefused(processes, { perMinute: null, monthly: 2_000, addresses: null })).toBe(2_000);
    await Promise.all(processes.map((store) => store.onModuleDestroy()));
    expect((await storedUsage()).month).toBe(2_000);
  });

  it('should give unused admissions back to their own second and to the month', async () => {
    const store = processStore();
    const limits: KeyLimits = { perMinute: 100_000, monthly: 10_000_000, addresses: null };
    for (let i = 0; i < 45; i++) expect((await store.consume(keyId, ADDRESS, NOW, limits)).accepted).toBe(true);
    const reserved = await storedUsage();
    // Blocks were reserved (fewer statements than requests), so more is counted than was admitted.
    expect(reserved.minute).toBeGreaterThan(45);
    expect(reserved.month).toBe(reserved.minute);

    // The next second closes the block; once the process stops, minute and month count the 46 admitted.
    expect((await store.consume(keyId, ADDRESS, new Date(NOW.getTime() + 1_000), limits)).accepted).toBe(true);
    await store.onModuleDestroy();
    expect(await storedUsage()).toEqual({ minute: 46, month: 46 });
  });

  it('should give nothing back to a second that no longer counts', async () => {
    const store = processStore();
    const limits: KeyLimits = { perMinute: 100_000, monthly: null, addresses: null };
    for (let i = 0; i < 45; i++) await store.consume(keyId, ADDRESS, NOW, limits);
    const reserved = await storedUsage();
    // 61 s later the block's bucket has left the minute: the give-back must not take from the new one.
    const later = new Date(NOW.getTime() + 61_000);
    const other = processStore();
    await other.consume(keyId, ADDRESS, later, limits);
    await store.consume(keyId, ADDRESS, later, limits);
    await Promise.all([store.onModuleDestroy(), other.onModuleDestroy()]);
    expect(reserved.minute).toBeGreaterThan(45);
    expect((await storedUsage()).minute).toBe(2);
  });

  it('should report the counts of the reservation while admitting from it', async () => {
    const store = processStore();
    const limits: KeyLimits = { perMinute: 100_000, monthly: null, addresses: null };
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await store.consume(keyId, ADDRESS, NOW, limits));
    const { minute } = await storedUsage();
    // Request 12 reserved a block of 3 (a quarter of the 12 seen): it and the two after it report the store's count.
    expect(answers.map((usage) => usage.recentCount)).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 9, 11, 11, 14]);
    expect(minute).toBe(14);
    await store.onModuleDestroy();
  });

  it('should send a new client address to the exact IP check even while a block lasts', async () => {
    const store = processStore();
    const limits: KeyLimits = { perMinute: null, monthly: null, addresses: 2 };
    for (let i = 0; i < 20; i++) await store.consume(keyId, ADDRESS, NOW, limits);
    expect(await store.consume(keyId, '203.0.113.1', NOW, limits)).toMatchObject({ accepted: true, addressCount: 2 });
    expect(await store.consume(keyId, '203.0.113.2', NOW, limits)).toMatchObject({ accepted: false, addressKnown: false, addressCount: 2 });
    // Known addresses still pass, from the block or the store.
    expect((await store.consume(keyId, '203.0.113.1', NOW, limits)).accepted).toBe(true);
    expect((await store.consume(keyId, ADDRESS, NOW, limits)).accepted).toBe(true);
    await store.onModuleDestroy();
  });
});
