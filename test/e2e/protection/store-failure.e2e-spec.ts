import { randomUUID } from 'node:crypto';
import { RedisConnection } from '../../../src/protection/redis/redis-connection.js';
import { createTestApp, createTestDatabase, type TestApp } from '../../support/create-test-app.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { protectionBackends } from '../../support/protection-backends.js';
import { httpOf, useTestDatabase } from '../../support/e2e.js';

const { backends, redisSkipped } = await protectionBackends();
const redis = backends.find((backend) => backend.name === 'Redis');

describe('Protection when its Redis fails', () => {
  const database = useTestDatabase();

  it('should refuse to start when Redis is unreachable, as with an unreachable database', async () => {
    // Port 1 on loopback: nothing listens there. Its own database: on the embedded fallback, a boot
    // that fails leaves its database open, and the next test needs one.
    const own = await createTestDatabase();
    try {
      await expect(createTestApp({ ...own.env, REDIS_URL: 'redis://127.0.0.1:1' })).rejects.toThrow(/ECONNREFUSED|connect/i);
    } finally {
      await own.drop();
    }
  });

  (redis ? it : it.skip)(
    'should keep limiting in each process once running while Redis is away (docs/protection.md, degraded mode)',
    async () => {
      const env = { ...database.current.env, ...redis!.env() };
      let testApp: TestApp | undefined;
      try {
        testApp = await createTestApp(env);
        const http = httpOf(testApp.app);
        const { key } = await createTeamWithKey(testApp.app, { key: { perMinuteLimit: 1 } });
        const poll = () => http.post(`/api/v1/auth/${randomUUID()}/poll`).set('x-api-key', key);
        await poll().expect(404);
        expect((await poll()).status).toBe(429);

        // The process counts alone from the shared counts it last saw: the minute stays used up.
        testApp.app.get(RedisConnection).client!.disconnect();
        for (let i = 0; i < 3; i++) {
          const res = await poll().expect(429);
          expect(res.headers['ratelimit-limit']).toBe('1');
        }
        const ready = await http.get('/health/ready').expect(200);
        expect(ready.body.checks.redis).toBe('degraded');
      } finally {
        await testApp?.close();
        await redis!.cleanUp(env);
      }
    },
  );
});

if (redisSkipped) it.skip('Redis fail-open test (Redis unreachable)', () => undefined);
