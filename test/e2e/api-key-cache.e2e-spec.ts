import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { getRepositoryToken } from '@nestjs/typeorm';
import request from 'supertest';
import type { Repository } from 'typeorm';
import { ApiKeyChanges } from '../../src/api-keys/api-key-changes.js';
import { ApiKey } from '../../src/api-keys/api-key.entity.js';
import { ApiKeysService } from '../../src/api-keys/api-keys.service.js';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../support/create-test-app.js';
import { createTeamWithKey } from '../support/fixtures.js';
import { protectionBackends } from '../support/protection-backends.js';
import { usingRealPostgres } from '../support/test-postgres.js';
import { waitUntil } from '../support/webhooks.js';

const { backends, redisSkipped } = await protectionBackends();

// Two replicas need a database several processes can use: the embedded fallback serves one.
const describeReplicas = usingRealPostgres() ? describe.each(backends) : describe.skip.each(backends);

/** docs/security.md (the key cache): a revoked or blocked key stops working on every replica within 1 s. */
describeReplicas('The API-key cache across two replicas ($name)', (backend) => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let replicas: TestApp[];
  let clients: ReturnType<typeof request>[];

  const poll = (replica: number, key: string) => clients[replica].post(`/api/v1/auth/${randomUUID()}/poll`).set('x-api-key', key);
  /** A key both replicas have authenticated, so both hold it in their caches. */
  const cachedEverywhere = async () => {
    const created = await createTeamWithKey(replicas[0].app);
    for (const replica of [0, 1]) await poll(replica, created.key).expect(404);
    await waitUntil(async () => replicas.every((r) => r.app.get(ApiKeyChanges).live), 'both replicas hearing key changes');
    for (const replica of [0, 1]) await poll(replica, created.key).expect(404);
    return created;
  };
  /** Milliseconds until the other replica refuses the key with `code`. */
  const refusedAfter = async (key: string, code: string) => {
    const started = Date.now();
    await waitUntil(async () => (await poll(1, key)).body.code === code, `replica 1 answering ${code}`, 5_000);
    return Date.now() - started;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    env = { ...database.env, ...backend.env() };
    replicas = [await createTestApp(env), await createTestApp(env)];
    clients = replicas.map((replica) => request(replica.app.getHttpServer()));
  });

  afterAll(async () => {
    for (const replica of replicas ?? []) await replica.close();
    await database?.drop();
    if (env) await backend.cleanUp(env);
  });

  it('should refuse a key revoked on one replica on the other within 1 s', async () => {
    const { apiKey, key } = await cachedEverywhere();
    await replicas[0].app.get(ApiKeysService).revoke(apiKey.id);
    expect(await refusedAfter(key, 'invalid_api_key')).toBeLessThanOrEqual(1_000);
  });

  it('should refuse a key blocked on one replica on the other within 1 s', async () => {
    const { apiKey, key } = await cachedEverywhere();
    await replicas[0].app.get(ApiKeysService).block(apiKey.id, new Date(Date.now() + 3_600_000));
    expect(await refusedAfter(key, 'api_key_blocked')).toBeLessThanOrEqual(1_000);
  });

  it('should not cache a lookup that raced a revocation: the revoked key never comes back', async () => {
    const { apiKey, key } = await cachedEverywhere();
    const changes = replicas[1].app.get(ApiKeyChanges);
    // Out of replica 1's cache (a change announced without one), so that its next lookup reads the row.
    const emptied = changes.generation;
    await replicas[0].app.get(ApiKeyChanges).publish(apiKey.id);
    await waitUntil(async () => changes.generation > emptied, 'the announcement being heard');

    // That lookup reads the key just before the revocation commits elsewhere, and returns only after
    // replica 1 has heard of the revocation: the worst interleaving, made certain.
    const repository = replicas[1].app.get<Repository<ApiKey>>(getRepositoryToken(ApiKey));
    const read = repository.findOne.bind(repository);
    const spy = jest.spyOn(repository, 'findOne').mockImplementationOnce(async (options) => {
      const stale = await read(options);
      const before = changes.generation;
      await replicas[0].app.get(ApiKeysService).revoke(apiKey.id);
      await waitUntil(async () => changes.generation > before, 'the revocation being heard');
      return stale;
    });
    try {
      // The raced lookup answers with what it read, once; it must not have cached it.
      await poll(1, key).expect(404);
      expect((await poll(1, key).expect(401)).body.code).toBe('invalid_api_key');
    } finally {
      spy.mockRestore();
    }
  });
});

if (redisSkipped) it.skip('Redis variants skipped: Redis unreachable', () => undefined);
