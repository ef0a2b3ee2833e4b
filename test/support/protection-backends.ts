import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** The Redis the tests use; it runs on this machine, but a clean machine may have none. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface ProtectionBackend {
  name: 'PostgreSQL' | 'Redis';
  /** Environment for one test app: Redis gets a key prefix of its own, so parallel files never meet. */
  env(): Record<string, string>;
  /** Deletes what the app left in the store (PostgreSQL state goes with the test database). */
  cleanUp(env: Record<string, string>): Promise<void>;
}

async function redisReachable(): Promise<boolean> {
  const client = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

async function deleteKeys(prefix: string): Promise<void> {
  const client = new Redis(TEST_REDIS_URL);
  try {
    for await (const keys of client.scanStream({ match: `${prefix}*`, count: 500 })) {
      if ((keys as string[]).length > 0) await client.del(...(keys as string[]));
    }
  } finally {
    client.disconnect();
  }
}

const postgres: ProtectionBackend = { name: 'PostgreSQL', env: () => ({}), cleanUp: async () => undefined };
const redis: ProtectionBackend = {
  name: 'Redis',
  env: () => ({
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: `eidgw-test:${process.env.EIDGW_TEST_RUN ?? 'local'}:${randomBytes(4).toString('hex')}:`,
  }),
  cleanUp: (env) => deleteKeys(env.REDIS_KEY_PREFIX),
};

/**
 * The stores to run a protection test file against: PostgreSQL always, Redis when it answers.
 * Without Redis the file says so on stderr and the Redis variant is skipped, not silently passed.
 */
export async function protectionBackends(): Promise<{ backends: ProtectionBackend[]; redisSkipped: boolean }> {
  if (await redisReachable()) return { backends: [postgres, redis], redisSkipped: false };
  process.stderr.write(`[tests] Redis unreachable at ${TEST_REDIS_URL}: the Redis variants of the protection tests are skipped.\n`);
  return { backends: [postgres], redisSkipped: true };
}

/**
 * For test files whose many deliberate authentication failures (all from loopback) are about
 * something else: a threshold no file reaches, so the IP block never answers for the code under test.
 */
export const NO_IP_BLOCKING = { IP_BLOCK_THRESHOLD: '10000' };
