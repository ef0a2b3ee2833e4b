import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { ApiKeyLastUseStore } from '../../../src/api-keys/api-key-last-use.store.js';
import { ApiKeysService } from '../../../src/api-keys/api-keys.service.js';
import { runCli } from '../../../src/cli/run-cli.js';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { withEnv } from '../../support/create-test-app.js';
import { useE2eApp } from '../../support/e2e.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { expectMatchesSchema } from '../../support/openapi.js';
import { expectProblem } from '../../support/problem.js';

// docs/security.md, "Last used": a use is noted in memory at most once a minute per key and written by a
// flush, here every 50 ms so that the tests wait a few hundred milliseconds at most.
describe('API keys: when each was last used', () => {
  const e2e = useE2eApp({ env: { API_KEY_LAST_USED_FLUSH_INTERVAL: '50ms' }, freezeClock: true });

  /** A team with one key, and the authorization header of one of its members. */
  const memberTeam = async (options: Parameters<typeof createTeamWithKey>[1] = {}) => {
    const made = await createTeamWithKey(e2e.app, options);
    const user = await e2e.app.get(UsersService).create({ teamId: made.team.id, email: `member-${randomUUID()}@example.com` });
    const { token } = await e2e.app.get(TokensService).issue({ userId: user.id, teamId: made.team.id, clientId: 'test' });
    return { ...made, authorization: `Bearer ${token}` };
  };

  /** The team's keys as the management API lists them: id → lastUsedAt. */
  const lastUsed = async (authorization: string): Promise<Map<string, string | null>> => {
    const res = await e2e.http
      .get('/api/v1/api-keys')
      .set('authorization', authorization)
      .expect(200)
      .expect((answer) => expectMatchesSchema(answer, 'GET /api/v1/api-keys'));
    return new Map((res.body as { id: string; lastUsedAt: string | null }[]).map((key) => [key.id, key.lastUsedAt]));
  };

  /** Lists until the key shows `expected`, which a flush brings within a few intervals. */
  const expectListed = async (authorization: string, id: string, expected: string | null) => {
    const deadline = Date.now() + 3_000;
    let shown = (await lastUsed(authorization)).get(id);
    while (shown !== expected && Date.now() < deadline) {
      await sleep(25);
      shown = (await lastUsed(authorization)).get(id);
    }
    expect(shown).toBe(expected);
  };

  /** Several flush intervals: a use not written by then was not noted. */
  const afterFlushes = () => sleep(300);

  const start = (key: string) => e2e.http.post('/api/v1/auth/simulator/start').set('x-api-key', key).send({ endUserIp: '192.0.2.1' });
  const now = () => e2e.clock.now().toISOString();

  it('should show when a used key was last used and null for a key never used, in the team API and the CLI', async () => {
    const { team, apiKey, key, authorization } = await memberTeam();
    const created = await e2e.http.post('/api/v1/api-keys').set('authorization', authorization).send({ name: 'unused' }).expect(201);
    expect(created.body.lastUsedAt).toBeNull();
    expect(await lastUsed(authorization)).toEqual(
      new Map([
        [created.body.id as string, null],
        [apiKey.id, null],
      ]),
    );

    await start(key).expect(200);
    const usedAt = now();
    await expectListed(authorization, apiKey.id, usedAt);
    expect((await lastUsed(authorization)).get(created.body.id as string)).toBeNull();

    const cli = await withEnv({ ...e2e.database.env, LOG_LEVEL: 'silent' }, () =>
      runCli<{ id: string; lastUsedAt: Date | null }[]>(['keys', 'list', '--team', team.id]),
    );
    expect(new Map(cli.output.map((listed) => [listed.id, listed.lastUsedAt]))).toEqual(
      new Map([
        [created.body.id as string, null],
        [apiKey.id, new Date(usedAt)],
      ]),
    );
  });

  it('should write a use at most once a minute: a use 30 s later leaves the time, one a minute later moves it', async () => {
    const { apiKey, key, authorization } = await memberTeam();
    await start(key).expect(200);
    const first = now();
    await expectListed(authorization, apiKey.id, first);

    e2e.clock.advance(30_000);
    await start(key).expect(200);
    await afterFlushes();
    expect((await lastUsed(authorization)).get(apiKey.id)).toBe(first);

    e2e.clock.advance(30_000);
    await start(key).expect(200);
    await expectListed(authorization, apiKey.id, now());
  });

  it('should count a key that authenticated as used even when a later check refuses it, and not a blocked key', async () => {
    const readOnly = await memberTeam({ scopes: ['sessions:read'] });
    expectProblem(await start(readOnly.key), 403, 'insufficient_scope');
    await expectListed(readOnly.authorization, readOnly.apiKey.id, now());

    const blocked = await memberTeam();
    await e2e.app.get(ApiKeysService).block(blocked.apiKey.id, new Date(e2e.clock.nowMs() + 60_000));
    expectProblem(await start(blocked.key), 403, 'api_key_blocked');
    await afterFlushes();
    expect((await lastUsed(blocked.authorization)).get(blocked.apiKey.id)).toBeNull();
  });

  it('should keep answering while the write fails, and write the use once the database takes it again', async () => {
    const { apiKey, key, authorization } = await memberTeam();
    const dataSource = e2e.app.get(DataSource);
    // A real failure of the flush's statement, and of nothing else.
    await dataSource.query(`
      CREATE FUNCTION test_refuse_last_use() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await dataSource.query(
      `CREATE TRIGGER test_refuse_last_use BEFORE UPDATE OF last_used_at ON api_keys FOR EACH ROW EXECUTE FUNCTION test_refuse_last_use()`,
    );
    try {
      await start(key).expect(200);
      const usedAt = now();
      await afterFlushes();
      expect((await lastUsed(authorization)).get(apiKey.id)).toBeNull();
      await start(key).expect(200);

      await dataSource.query(`DROP TRIGGER test_refuse_last_use ON api_keys`);
      await expectListed(authorization, apiKey.id, usedAt);
    } finally {
      await dataSource.query(`DROP TRIGGER IF EXISTS test_refuse_last_use ON api_keys`);
      await dataSource.query(`DROP FUNCTION test_refuse_last_use()`);
    }
  });

  it('should write overlapping batches from several processes at once without a deadlock, and never move a time back', async () => {
    const { team, authorization } = await memberTeam();
    // Enough other keys that PostgreSQL finds each key of a batch by its index, in the batch's order, as in production.
    const others = await createTeamWithKey(e2e.app);
    await e2e.app.get(DataSource).query(
      `INSERT INTO api_keys (id, team_id, environment, key_hash, display_prefix, last_four, scopes)
       SELECT gen_random_uuid(), $1, 'test', sha256(gen_random_uuid()::text::bytea), 'eidk_test_xxxx', 'xxxx', '{}' FROM generate_series(1, 20000)`,
      [others.team.id],
    );
    await e2e.app.get(DataSource).query('ANALYZE api_keys');
    const keys: string[] = [];
    for (let i = 0; i < 20; i++) keys.push((await e2e.app.get(ApiKeysService).create({ teamId: team.id })).apiKey.id);
    const base = e2e.clock.nowMs();
    const store = e2e.app.get(ApiKeyLastUseStore);
    // Each batch holds every key, in its own order, as processes that saw the same keys would write them.
    const batches = Array.from({ length: 30 }, (_, i) => {
      const order = [...keys].sort(() => Math.random() - 0.5);
      return new Map(order.map((id) => [id, new Date(base + i * 1_000)]));
    });
    const results = await Promise.allSettled(batches.map((batch) => store.record(batch)));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);

    await store.record(new Map(keys.map((id) => [id, new Date(base)])));
    const latest = new Date(base + 29_000).toISOString();
    const listed = await lastUsed(authorization);
    for (const id of keys) expect(listed.get(id)).toBe(latest);
  });
});
