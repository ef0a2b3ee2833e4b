import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { getRepositoryToken } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ApiKeyChanges } from '../../../src/api-keys/api-key-changes.js';
import { ApiKey } from '../../../src/api-keys/api-key.entity.js';
import { ApiKeysService } from '../../../src/api-keys/api-keys.service.js';
import { httpOf, useE2eApp } from '../../support/e2e.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { expectProblem } from '../../support/problem.js';
import { protectionBackends } from '../../support/protection-backends.js';
import { usingRealPostgres } from '../../support/test-postgres.js';
import { waitUntil } from '../../support/webhooks.js';

const { backends, redisSkipped } = await protectionBackends();

// Two replicas need a database several processes can use: the embedded fallback serves one.
const describeReplicas = usingRealPostgres() ? describe.each(backends) : describe.skip.each(backends);

/** docs/security.md (the key cache): a revoked or blocked key stops working on every replica within 1 s. */
describeReplicas('The API-key cache across two replicas ($name)', (backend) => {
  const e2e = useE2eApp({ env: () => backend.env(), replicas: 2 });
  afterAll(async () => {
    await backend.cleanUp(e2e.env as Record<string, string>);
  });

  const poll = (replica: number, key: string) =>
    httpOf(e2e.replicas[replica].app).post(`/api/v1/auth/${randomUUID()}/poll`).set('x-api-key', key);
  /** A key both replicas have authenticated, so both hold it in their caches. */
  const cachedEverywhere = async () => {
    const created = await createTeamWithKey(e2e.replicas[0].app);
    for (const replica of [0, 1]) await poll(replica, created.key).expect(404);
    await waitUntil(async () => e2e.replicas.every((r) => r.app.get(ApiKeyChanges).live), 'both replicas hearing key changes');
    for (const replica of [0, 1]) await poll(replica, created.key).expect(404);
    return created;
  };
  /** Milliseconds until the other replica refuses the key with `code`. */
  const refusedAfter = async (key: string, code: string) => {
    const started = Date.now();
    await waitUntil(async () => (await poll(1, key)).body.code === code, `replica 1 answering ${code}`, 5_000);
    return Date.now() - started;
  };

  it('should refuse a key revoked on one replica on the other within 1 s', async () => {
    const { apiKey, key } = await cachedEverywhere();
    await e2e.replicas[0].app.get(ApiKeysService).revoke(apiKey.id);
    expect(await refusedAfter(key, 'invalid_api_key')).toBeLessThanOrEqual(1_000);
  });

  it('should refuse a key blocked on one replica on the other within 1 s', async () => {
    const { apiKey, key } = await cachedEverywhere();
    await e2e.replicas[0].app.get(ApiKeysService).block(apiKey.id, new Date(Date.now() + 3_600_000));
    expect(await refusedAfter(key, 'api_key_blocked')).toBeLessThanOrEqual(1_000);
  });

  it('should not cache a lookup that raced a revocation: the revoked key never comes back', async () => {
    const { apiKey, key } = await cachedEverywhere();
    const changes = e2e.replicas[1].app.get(ApiKeyChanges);
    // Out of replica 1's cache (a change announced without one), so that its next lookup reads the row.
    const emptied = changes.generation;
    await e2e.replicas[0].app.get(ApiKeyChanges).publish(apiKey.id);
    await waitUntil(async () => changes.generation > emptied, 'the announcement being heard');

    // That lookup reads the key just before the revocation commits elsewhere, and returns only after
    // replica 1 has heard of the revocation: the worst interleaving, made certain.
    const repository = e2e.replicas[1].app.get<Repository<ApiKey>>(getRepositoryToken(ApiKey));
    const read = repository.findOne.bind(repository);
    const spy = jest.spyOn(repository, 'findOne').mockImplementationOnce(async (options) => {
      const stale = await read(options);
      const before = changes.generation;
      await e2e.replicas[0].app.get(ApiKeysService).revoke(apiKey.id);
      await waitUntil(async () => changes.generation > before, 'the revocation being heard');
      return stale;
    });
    try {
      // The raced lookup answers with what it read, once; it must not have cached it.
      await poll(1, key).expect(404);
      expectProblem(await poll(1, key), 401, 'invalid_api_key');
    } finally {
      spy.mockRestore();
    }
  });
});

if (redisSkipped) it.skip('Redis variants skipped: Redis unreachable', () => undefined);
