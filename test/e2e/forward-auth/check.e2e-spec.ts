import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ApiKeyChanges } from '../../../src/api-keys/api-key-changes.js';
import { ApiKeysService } from '../../../src/api-keys/api-keys.service.js';
import { IpBlocksService } from '../../../src/protection/ip-blocks/ip-blocks.service.js';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { createTestApp } from '../../support/create-test-app.js';
import { useE2eApp } from '../../support/e2e.js';
import { createTeamWithKey, type TeamKeyOptions } from '../../support/fixtures.js';
import { expectProblem } from '../../support/problem.js';
import { protectionBackends } from '../../support/protection-backends.js';
import { waitUntil } from '../../support/webhooks.js';

const { backends } = await protectionBackends();

/** docs/forward-auth.md: the decisions of /forward-auth, asked as each gateway asks, on the shipped example policy. */
describe.each(backends)('Forward authentication ($name)', (backend) => {
  const env = backend.env();
  const e2e = useE2eApp({
    env: { ...env, FORWARD_AUTH_POLICY: 'deploy/forward-auth-policy.example.json', TRUST_PROXY: '127.0.0.1,::1' },
  });
  afterAll(() => backend.cleanUp(env));

  // Each test its own client address (loopback is a trusted proxy here), so blocks and IP limits do not meet.
  let address = 0;
  const nextAddress = () => `198.51.100.${++address}`;
  const keyOf = async (options: TeamKeyOptions = {}) => (await createTeamWithKey(e2e.app, options)).key;
  /** nginx's auth_request subrequest for `method uri`. */
  const ask = (method: string, uri: string, ip: string = nextAddress()) =>
    e2e.http.get('/forward-auth').set('x-original-method', method).set('x-original-uri', uri).set('x-forwarded-for', ip);
  const memberToken = async (options: TeamKeyOptions = {}) => {
    const { team } = await createTeamWithKey(e2e.app, options);
    const user = await e2e.app.get(UsersService).create({ teamId: team.id, email: `member-${randomUUID()}@example.com` });
    const { token } = await e2e.app.get(TokensService).issue({ userId: user.id, teamId: team.id, clientId: 'test' });
    return { team, user, authorization: `Bearer ${token}` };
  };

  it('should allow a key on a listed route with 200, an empty body and the identity headers', async () => {
    const { team, apiKey, key } = await createTeamWithKey(e2e.app, { plan: 'pro', key: { perMinuteLimit: 600 } });
    const res = await ask('GET', '/companies/5560001234').set('x-api-key', key).expect(200);
    expect(res.text).toBe('');
    expect(res.headers).toMatchObject({
      'x-eidgw-team': team.id,
      'x-eidgw-environment': 'test',
      'x-eidgw-key': apiKey.id,
      'x-eidgw-features': 'pro',
      'cache-control': 'no-store',
    });
    expect(res.headers['x-eidgw-user']).toBe('');
    // A limited key's RateLimit headers come along, for the gateway to pass on.
    expect(res.headers['ratelimit-limit']).toBe('600');
    expect(res.headers['ratelimit-remaining']).toBe('599');
  });

  it('should read the original request as Caddy and Traefik send it, and as Envoy does', async () => {
    const key = await keyOf({ plan: 'pro' });
    await e2e.http
      .get('/forward-auth')
      .set({ 'x-forwarded-method': 'POST', 'x-forwarded-uri': '/watchlists/42/events', 'x-forwarded-host': 'lens.example.com' })
      .set('x-forwarded-for', nextAddress())
      .set('x-api-key', key)
      .expect(200);
    // Envoy ext_authz (HTTP): the original method on /forward-auth + the original path.
    await e2e.http.post('/forward-auth/watchlists/42/events').set('x-forwarded-for', nextAddress()).set('x-api-key', key).expect(200);
    const refused = await e2e.http.delete('/forward-auth/companies/1').set('x-forwarded-for', nextAddress()).set('x-api-key', key);
    expectProblem(refused, 403, 'endpoint_not_available');
    expect(refused.body.instance).toBe('/companies/1');
  });

  it('should take the key from ?key= in the original URI', async () => {
    const key = await keyOf();
    await ask('GET', `/search-public/companies?q=Dental&query_by=names.nameOrIdentifier&key=${key}&page=1`).expect(200);
  });

  it('should refuse what each credential check refuses, with the problem in X-Eidgw-Problem for nginx', async () => {
    const missing = await ask('GET', '/companies/1');
    expectProblem(missing, 401, 'missing_token');
    expect(missing.body.instance).toBe('/companies/1');
    expect(JSON.parse(missing.headers['x-eidgw-problem'])).toEqual(missing.body);

    expectProblem(await ask('GET', '/companies/1').set('x-api-key', `eidk_test_${'Q'.repeat(40)}`), 401, 'invalid_api_key');
    expectProblem(await ask('GET', '/companies/1').set('authorization', 'Bearer not.a.token'), 401, 'invalid_token');

    const { apiKey, key: blocked } = await createTeamWithKey(e2e.app);
    await e2e.app.get(ApiKeysService).block(apiKey.id, new Date(Date.now() + 3_600_000));
    expectProblem(await ask('GET', '/companies/1').set('x-api-key', blocked), 403, 'api_key_blocked');

    const expired = await keyOf({ key: { validUntil: new Date(Date.now() - 60_000) } });
    expectProblem(await ask('GET', '/companies/1').set('x-api-key', expired), 403, 'api_key_expired');

    const lapsed = await keyOf({ subscriptionEndsAt: new Date(Date.now() - 60_000) });
    expectProblem(await ask('GET', '/companies/1').set('x-api-key', lapsed), 403, 'subscription_expired');
    expectProblem(
      await ask('GET', '/companies/1').set('x-api-key', await keyOf({ subscriptionEndsAt: undefined })),
      403,
      'subscription_required',
    );
  });

  it("should refuse a team without the route's feature, a route closed to keys and a route the policy does not list", async () => {
    const free = await keyOf({ plan: 'free' });
    const res = await ask('POST', '/watchlists/7/companies').set('x-api-key', free);
    expectProblem(res, 403, 'feature_required');
    expect(res.body.features).toEqual(['pro']);

    const pro = await keyOf({ plan: 'pro' });
    expectProblem(await ask('POST', '/team/exports').set('x-api-key', pro), 403, 'endpoint_not_available');
    expectProblem(await ask('DELETE', '/companies/1').set('x-api-key', pro), 403, 'endpoint_not_available');
    expectProblem(await ask('GET', '/companies/1/').set('x-api-key', pro), 403, 'endpoint_not_available');
    expectProblem(await ask('GET', '/admin').set('x-api-key', pro), 403, 'endpoint_not_available');
  });

  it("should pass team members' tokens where the policy allows, closed-to-key routes included, with X-Eidgw-User", async () => {
    const { team, user, authorization } = await memberToken({ plan: 'pro' });
    const res = await ask('POST', '/team/exports').set('authorization', authorization).expect(200);
    expect(res.headers).toMatchObject({ 'x-eidgw-team': team.id, 'x-eidgw-user': user.id, 'x-eidgw-features': 'pro' });
    // Sent empty, so a gateway copying them overwrites what a client may have sent under those names.
    expect(res.headers['x-eidgw-key']).toBe('');
    expect(res.headers['x-eidgw-environment']).toBe('');

    const free = await memberToken({ plan: 'free' });
    expectProblem(await ask('POST', '/watchlists/7/events').set('authorization', free.authorization), 403, 'feature_required');
  });

  it("should count the key's per-minute limit and answer 429 with Retry-After and RateLimit headers", async () => {
    const key = await keyOf({ plan: 'pro', key: { perMinuteLimit: 2 } });
    const ip = nextAddress();
    await ask('GET', '/companies/1', ip).set('x-api-key', key).expect(200);
    const second = await ask('GET', '/companies/2', ip).set('x-api-key', key).expect(200);
    expect(second.headers['ratelimit-remaining']).toBe('0');
    const refused = await ask('GET', '/companies/3', ip).set('x-api-key', key);
    expectProblem(refused, 429, 'rate_limit_exceeded');
    expect(refused.body.limit).toBe('per_minute');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-limit']).toBe('2');
  });

  it('should block an address after ten failed attempts, valid key or not, and not count a missing key', async () => {
    const ip = nextAddress();
    const key = await keyOf();
    for (let i = 0; i < 3; i++) expectProblem(await ask('GET', '/companies/1', ip), 401, 'missing_token');
    for (let i = 0; i < 10; i++)
      expectProblem(await ask('GET', '/companies/1', ip).set('x-api-key', `eidk_test_${String(i).repeat(40)}`), 401, 'invalid_api_key');
    const blocked = await ask('GET', '/companies/1', ip).set('x-api-key', key);
    expectProblem(blocked, 401, 'ip_blocked');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
    expect(JSON.parse(blocked.headers['x-eidgw-problem'])).toMatchObject({ code: 'ip_blocked', instance: '/companies/1' });
    // Another address is not affected.
    await ask('GET', '/companies/1').set('x-api-key', key).expect(200);
  });

  it('should refuse injection patterns in the original path and query with 400 before authentication', async () => {
    for (const uri of [
      "/search/companies?q=1' OR '1'='1",
      '/search/companies?q=%3Cscript%3Ealert(1)%3C/script%3E',
      '/companies/..%2F..%2Fetc%2Fpasswd',
    ]) {
      const res = await ask('GET', uri);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBeUndefined();
      expect(res.body.detail).toMatch(/input guard/);
    }
    // Ordinary text passes the guard (and then needs a key).
    expectProblem(await ask('GET', '/search/companies?q=Select+Dental+AB&query_by=name'), 401, 'missing_token');
  });

  it('should refuse a request that names no original request with 400', async () => {
    const res = await e2e.http.get('/forward-auth').expect(400);
    expect(res.body.detail).toMatch(/X-Original-URI/);
  });

  it('should count decisions by outcome and route template in the metrics', async () => {
    const key = await keyOf({ plan: 'pro' });
    await ask('POST', '/watchlists/9/vehicles').set('x-api-key', key).expect(200);
    await ask('GET', '/nowhere').set('x-api-key', key).expect(403);
    const metrics = (await e2e.http.get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/forward_auth_decisions_total\{outcome="allowed",method="POST",route="\/watchlists\/\{id\}\/vehicles"\} [1-9]/);
    expect(metrics).toMatch(/forward_auth_decisions_total\{outcome="endpoint_not_available",method="-",route="unlisted"\} [1-9]/);
    expect(metrics).not.toMatch(/\/nowhere/);
  });
});

describe('Forward authentication: cost and configuration', () => {
  const e2e = useE2eApp({
    env: { FORWARD_AUTH_POLICY: 'deploy/forward-auth-policy.example.json', TRUST_PROXY: '127.0.0.1,::1' },
    // The interval jobs write and read on their own schedule; this file counts statements.
    stopBackgroundJobs: true,
  });

  it('should decide for a known key without a database round trip', async () => {
    const key = (await createTeamWithKey(e2e.app, { plan: 'pro' })).key;
    const ask = () =>
      e2e.http
        .get('/forward-auth')
        .set({ 'x-original-method': 'GET', 'x-original-uri': '/companies/1', 'x-forwarded-for': '192.0.2.77', 'x-api-key': key })
        .expect(200);
    // Keys are cached once the change feed listens (docs/security.md); the first request starts it.
    await ask();
    await waitUntil(async () => e2e.app.get(ApiKeyChanges).live || undefined, 'the API key change feed');
    await ask();
    // The copy of the IP blocks is fresh (its job is stopped here), as it is in a running service.
    await e2e.app.get(IpBlocksService).syncBlocks();
    const statements: string[] = [];
    // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, below
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [sql] = args as [string | { text?: string }];
      statements.push(typeof sql === 'string' ? sql : String(sql?.text));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      for (let i = 0; i < 20; i++) await ask();
    } finally {
      pg.Client.prototype.query = query;
    }
    expect(statements).toEqual([]);
  });

  it('should refuse to start with a bad policy, naming the variable and the entry', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eidgw-policy-'));
    const file = join(dir, 'policy.json');
    await writeFile(file, JSON.stringify({ routes: [{ method: 'GET', path: '/companies/{id}', apiKey: true, features: 'pro' }] }));
    try {
      await expect(createTestApp({ ...e2e.env, FORWARD_AUTH_POLICY: file })).rejects.toThrow(
        /FORWARD_AUTH_POLICY routes\[0\] \(GET \/companies\/\{id\}\): features/,
      );
      await expect(createTestApp({ ...e2e.env, FORWARD_AUTH_POLICY: join(dir, 'missing.json') })).rejects.toThrow(
        /FORWARD_AUTH_POLICY the file cannot be read \(ENOENT\)/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
