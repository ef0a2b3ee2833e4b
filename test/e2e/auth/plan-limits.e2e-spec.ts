import { randomUUID } from 'node:crypto';
import { ApiKeysService } from '../../../src/api-keys/api-keys.service.js';
import { runCli } from '../../../src/cli/run-cli.js';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { TEST_ENCRYPTION_KEY, withEnv } from '../../support/create-test-app.js';
import { useE2eApp } from '../../support/e2e.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { expectValidationProblem } from '../../support/problem.js';
import { protectionBackends } from '../../support/protection-backends.js';

const { backends } = await protectionBackends();

/** docs/security.md (plan limits): what a team member may set on the team's keys. */
describe('Plan limits on API keys', () => {
  const e2e = useE2eApp();

  /** A new team of the plan, and the bearer token of one of its members. */
  const memberOf = async (plan: 'free' | 'pro' | 'enterprise') => {
    const { team } = await createTeamWithKey(e2e.app, { plan });
    const user = await e2e.app.get(UsersService).create({ teamId: team.id, email: `member-${randomUUID()}@example.com` });
    const { token } = await e2e.app.get(TokensService).issue({ userId: user.id, teamId: team.id, clientId: 'test' });
    return { team, authorization: `Bearer ${token}` };
  };
  const createKey = (authorization: string, body: object = {}) =>
    e2e.http.post('/api/v1/api-keys').set('authorization', authorization).send(body);

  it.each([
    ['free', 60, 10_000],
    ['pro', 600, 1_000_000],
    ['enterprise', null, null],
  ] as const)("should give a key made by a member of a %s team the plan's defaults", async (plan, perMinuteLimit, monthlyLimit) => {
    const { authorization } = await memberOf(plan);
    expect((await createKey(authorization).expect(201)).body).toMatchObject({ perMinuteLimit, monthlyLimit });
  });

  it("should take limits up to the plan's maximum and refuse more with 400 naming the field", async () => {
    const { authorization } = await memberOf('free');
    expect((await createKey(authorization, { perMinuteLimit: 600, monthlyLimit: 100_000 }).expect(201)).body).toMatchObject({
      perMinuteLimit: 600,
      monthlyLimit: 100_000,
    });
    const refused = await createKey(authorization, { perMinuteLimit: 601, monthlyLimit: 100_001 });
    expect(expectValidationProblem(refused)).toEqual(['/perMinuteLimit', '/monthlyLimit']);
    const enterprise = await memberOf('enterprise');
    await createKey(enterprise.authorization, { perMinuteLimit: 10_000_000 }).expect(201);
  });

  it("should refuse a member's key past the plan's active keys, counting the CLI's keys, which may exceed the cap and any limit", async () => {
    const { team, authorization } = await memberOf('free');
    // createTeamWithKey made one key; the CLI (the operator) adds eight with limits beyond the plan.
    for (let i = 0; i < 8; i++) await e2e.app.get(ApiKeysService).create({ teamId: team.id, perMinuteLimit: 1_000_000 });
    await createKey(authorization).expect(201);
    const refused = await createKey(authorization);
    expectValidationProblem(refused);
    expect(refused.body).toMatchObject({ status: 400, errors: [{ pointer: '', detail: expect.stringContaining('10 active API keys') }] });

    const cli = await withEnv({ ...e2e.env, LOG_LEVEL: 'silent', DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }, () =>
      runCli(['keys', 'create', '--team', team.id, '--per-minute', '100000000']),
    );
    expect(cli).toMatchObject({ exitCode: 0 });

    // A revoked key frees its place.
    const [oldest] = (await e2e.http.get('/api/v1/api-keys').set('authorization', authorization).expect(200)).body.slice(-1);
    await e2e.http.post(`/api/v1/api-keys/${oldest.id}/revoke`).set('authorization', authorization).expect(200);
    await createKey(authorization).expect(400);
    await e2e.http
      .post(`/api/v1/api-keys/${(await e2e.http.get('/api/v1/api-keys').set('authorization', authorization)).body[0].id}/revoke`)
      .set('authorization', authorization)
      .expect(200);
    await createKey(authorization).expect(201);
  });
});

describe.each(backends)('Key listings with usage this month ($name)', (backend) => {
  // Supertest connects from loopback: trusting it lets each request name its client address.
  const e2e = useE2eApp({ env: () => ({ ...backend.env(), TRUST_PROXY: '127.0.0.1,::1' }) });
  afterAll(async () => {
    await backend.cleanUp(e2e.env as Record<string, string>);
  });

  it("should show each key's limits and its requests and addresses this month, starting over with the month", async () => {
    e2e.clock.freeze(Date.parse('2026-11-30T23:59:00Z'));
    const { http } = e2e;
    const { team, apiKey, key } = await createTeamWithKey(e2e.app, { key: { perMinuteLimit: 100, monthlyLimit: 5_000, ipLimit: 3 } });
    const user = await e2e.app.get(UsersService).create({ teamId: team.id, email: `member-${randomUUID()}@example.com` });
    const { token } = await e2e.app.get(TokensService).issue({ userId: user.id, teamId: team.id, clientId: 'test' });
    const list = async () => (await e2e.http.get('/api/v1/api-keys').set('authorization', `Bearer ${token}`).expect(200)).body;

    expect(await list()).toEqual([
      expect.objectContaining({
        id: apiKey.id,
        perMinuteLimit: 100,
        monthlyLimit: 5_000,
        ipLimit: 3,
        usageThisMonth: { requests: 0, addresses: 0 },
      }),
    ]);
    for (const ip of ['192.0.2.1', '192.0.2.2', '192.0.2.1']) {
      await http.post(`/api/v1/auth/${randomUUID()}/poll`).set('x-api-key', key).set('x-forwarded-for', ip).expect(404);
    }
    expect((await list())[0].usageThisMonth).toEqual({ requests: 3, addresses: 2 });
    e2e.clock.advance(120_000);
    expect((await list())[0].usageThisMonth).toEqual({ requests: 0, addresses: 0 });
  });
});
