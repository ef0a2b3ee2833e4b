import { randomUUID } from 'node:crypto';
import { ApiKeysService } from '../../../src/api-keys/api-keys.service.js';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { createTestApp, TEST_ENCRYPTION_KEY, type TestApp } from '../../support/create-test-app.js';
import { useTestDatabase } from '../../support/e2e.js';
import { createTeamWithKey, type TeamKeyOptions } from '../../support/fixtures.js';
import {
  gatewayBinary,
  requestFrom,
  startCaddy,
  startNginx,
  startStandInApi,
  type ClientAnswer,
  type RunningGateway,
} from '../../support/gateways.js';
import { buildService, ServiceProcess } from '../../support/service-process.js';
import { waitUntil } from '../../support/webhooks.js';

/** A log line as JSON; null for anything else (the kept output may start inside a line). */
const parsedLine = (text: string): { original?: { url: string } } | null => {
  try {
    return JSON.parse(text) as { original?: { url: string } };
  } catch {
    return null;
  }
};

const nginx = gatewayBinary('nginx', ['/usr/sbin/nginx', '/usr/bin/nginx']);
const caddy = gatewayBinary('caddy', ['/usr/bin/caddy', '/usr/local/bin/caddy']);
const gateways = [
  { name: 'nginx auth_request', binary: nginx, start: startNginx },
  { name: 'Caddy forward_auth', binary: caddy, start: startCaddy },
];

/**
 * docs/forward-auth.md: real gateways from Debian's packages, configured with the snippets the docs
 * show (deploy/nginx/forward-auth.conf, deploy/forward-auth.caddy), in front of a stand-in for a
 * v2 API, asking the built service in its own process on the shipped example policy.
 */
describe('Forward authentication behind real gateways', () => {
  let build: Awaited<ReturnType<typeof buildService>>;
  let service: ServiceProcess;
  let fixtures: TestApp;
  let api: Awaited<ReturnType<typeof startStandInApi>>;
  afterAll(async () => {
    await service?.kill();
    await fixtures?.close();
    await build?.remove();
    await api?.close();
  });
  const database = useTestDatabase();

  beforeAll(async () => {
    if (!nginx && !caddy) return;
    api = await startStandInApi();
    build = await buildService();
    const env = {
      ...database.current.env,
      DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      FORWARD_AUTH_POLICY: 'deploy/forward-auth-policy.example.json',
      // Only the gateways, which connect from 127.0.0.1; the tests' clients connect from other loopback addresses.
      TRUST_PROXY: '127.0.0.1',
      // The fixtures' tokens and the service must name the same issuer.
      PUBLIC_BASE_URL: 'http://localhost:3000',
    };
    // Teams, keys and member tokens are made through the services, in this process, on the same database.
    fixtures = await createTestApp(env);
    // The first token makes the signing key, which the service then loads at its start.
    const { team } = await createTeamWithKey(fixtures.app);
    const user = await fixtures.app.get(UsersService).create({ teamId: team.id, email: `member-${randomUUID()}@example.com` });
    await fixtures.app.get(TokensService).issue({ userId: user.id, teamId: team.id, clientId: 'test' });
    service = await ServiceProcess.start(build.main, { ...env, LOG_LEVEL: 'info' });
  }, 90_000);

  const keyOf = async (options: TeamKeyOptions = {}) => (await createTeamWithKey(fixtures.app, options)).key;

  describe.each(gateways)('$name', ({ name, binary, start }) => {
    let gateway: RunningGateway;
    beforeAll(async () => {
      if (binary) gateway = await start(binary, { eidgw: new URL(service.baseUrl).host, api: api.address });
    }, 30_000);
    afterAll(() => gateway?.stop());
    const test = binary ? it : it.skip;

    // Each test connects from its own loopback address (127.0.N.M), which the gateway passes on in X-Forwarded-For.
    let address = 0;
    const network = name.startsWith('nginx') ? '127.0.1' : '127.0.2';
    const nextAddress = () => `${network}.${++address}`;
    const send = (method: string, path: string, headers: Record<string, string> = {}, ip = nextAddress()) =>
      requestFrom(ip, `${gateway.baseUrl}${path}`, {
        method,
        headers: { ...(method === 'POST' ? { 'content-type': 'application/json' } : {}), ...headers },
        body: method === 'POST' ? JSON.stringify({ startRow: 0, endRow: 100 }) : undefined,
      });
    /** The client gets the service's status and problem document, and the API never sees the request. */
    const expectRefused = (response: ClientAnswer, status: number, code: string | undefined) => {
      const body = JSON.parse(response.text) as Record<string, unknown>;
      expect({ status: response.status, code: body.code }).toEqual({ status, code });
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String), instance: response.path.split('?')[0] });
      expect(api.seen.some((request) => request.url === response.path)).toBe(false);
      return { body, headers: response.headers };
    };
    const reached = (path: string) => api.seen.filter((request) => request.url === path).at(-1);

    test('should pass an allowed key to the API with the identity headers, replacing any the client sent', async () => {
      const { team, apiKey, key } = await createTeamWithKey(fixtures.app, { plan: 'pro', key: { perMinuteLimit: 100 } });
      const path = `/watchlists/${randomUUID()}/events`;
      const response = await send('POST', path, { 'x-api-key': key, 'x-eidgw-team': 'forged', 'x-eidgw-user': 'forged' });
      expect(response.status).toBe(200);
      expect(JSON.parse(response.text)).toEqual({ served: path });
      const seen = reached(path);
      expect(seen?.method).toBe('POST');
      expect(seen?.headers).toMatchObject({
        'x-eidgw-team': team.id,
        'x-eidgw-environment': 'test',
        'x-eidgw-key': apiKey.id,
        'x-eidgw-features': 'pro',
      });
      // Sent empty by the service: nginx then drops it, Caddy passes it empty; the forged value is gone either way.
      expect(seen?.headers['x-eidgw-user'] ?? '').toBe('');
      if (name.startsWith('nginx')) expect(response.headers['ratelimit-limit']).toBe('100');
    });

    test("should refuse with the service's status and code: missing, unknown, blocked and expired keys", async () => {
      expectRefused(await send('GET', '/companies/1'), 401, 'missing_token');
      expectRefused(await send('GET', '/companies/2', { 'x-api-key': `eidk_test_${'Q'.repeat(40)}` }), 401, 'invalid_api_key');
      const { apiKey, key: blocked } = await createTeamWithKey(fixtures.app);
      await fixtures.app.get(ApiKeysService).block(apiKey.id, new Date(Date.now() + 3_600_000));
      expectRefused(await send('GET', '/companies/3', { 'x-api-key': blocked }), 403, 'api_key_blocked');
      const expired = await keyOf({ key: { validUntil: new Date(Date.now() - 60_000) } });
      expectRefused(await send('GET', '/companies/4', { 'x-api-key': expired }), 403, 'api_key_expired');
    });

    test('should refuse a team without the feature, a route closed to keys and a lapsed subscription', async () => {
      const { body } = expectRefused(
        await send('POST', '/watchlists/5/persons', { 'x-api-key': await keyOf({ plan: 'free' }) }),
        403,
        'feature_required',
      );
      expect(body.features).toEqual(['pro']);
      expectRefused(await send('POST', '/team/exports', { 'x-api-key': await keyOf({ plan: 'pro' }) }), 403, 'endpoint_not_available');
      const lapsed = await keyOf({ subscriptionEndsAt: new Date(Date.now() - 60_000) });
      expectRefused(await send('GET', '/companies/6', { 'x-api-key': lapsed }), 403, 'subscription_expired');
    });

    // docs/security.md, round 4: behind Caddy, a client's X-Original-URI used to decide the request.
    test("should decide the request the client sent, whatever the client's X-Original-* and X-Forwarded-* headers say", async () => {
      const free = await keyOf({ plan: 'free' });
      const spoofed = {
        'x-original-method': 'GET',
        'x-original-uri': '/companies/1',
        'x-forwarded-method': 'GET',
        'x-forwarded-uri': '/companies/1',
      };
      expectRefused(await send('POST', '/team/exports', { 'x-api-key': free, ...spoofed }), 403, 'endpoint_not_available');
      const { body } = expectRefused(await send('GET', '/persons/1', { 'x-api-key': free, ...spoofed }), 403, 'feature_required');
      expect(body.features).toEqual(['pro']);
      expect(api.seen.some((request) => request.url === '/companies/1')).toBe(false);
    });

    test('should answer 429 with Retry-After once the per-minute limit is reached', async () => {
      const key = await keyOf({ key: { perMinuteLimit: 2 } });
      const ip = nextAddress();
      for (const id of [7, 8]) expect((await send('GET', `/companies/${id}`, { 'x-api-key': key }, ip)).status).toBe(200);
      const { body, headers } = expectRefused(await send('GET', '/companies/9', { 'x-api-key': key }, ip), 429, 'rate_limit_exceeded');
      expect(body.limit).toBe('per_minute');
      expect(Number(headers['retry-after'])).toBeGreaterThan(0);
    });

    test('should block an address after ten failed attempts, with Retry-After', async () => {
      const ip = nextAddress();
      for (let i = 0; i < 10; i++)
        expectRefused(await send('GET', '/companies/10', { 'x-api-key': `eidk_test_${String(i).repeat(40)}` }, ip), 401, 'invalid_api_key');
      const { headers } = expectRefused(await send('GET', '/companies/11', { 'x-api-key': await keyOf() }, ip), 401, 'ip_blocked');
      expect(Number(headers['retry-after'])).toBeGreaterThan(800);
    });

    test('should refuse an injection pattern in the query with 400 before the API', async () => {
      expectRefused(await send('GET', `/search/companies?q=${encodeURIComponent("x' OR '1'='1")}&query_by=name`), 400, undefined);
      expectRefused(await send('GET', '/search-public/companies?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E'), 400, undefined);
    });

    test('should take ?key= from the original URI and keep it out of the logs', async () => {
      const key = await keyOf();
      const path = `/search-public/companies?q=Dental&query_by=names.nameOrIdentifier&key=${key}&page=2`;
      const response = await send('GET', path);
      expect(response.status).toBe(200);
      expect(reached(path)).toBeDefined();
      const line = await waitUntil(
        async () =>
          service.log
            .split('\n')
            .map(parsedLine)
            .find((entry) => entry?.original?.url.startsWith('/search-public/companies?q=Dental') && entry.original.url.includes('page=2')),
        'the decision log line',
      );
      expect(line?.original?.url).toBe('/search-public/companies?q=Dental&query_by=names.nameOrIdentifier&key=[redacted]&page=2');
      expect(service.log).not.toContain(key);
    });

    test("should pass a team member's token where the policy allows, with X-Eidgw-User", async () => {
      const { team } = await createTeamWithKey(fixtures.app, { plan: 'pro' });
      const user = await fixtures.app.get(UsersService).create({ teamId: team.id, email: `member-${randomUUID()}@example.com` });
      const { token } = await fixtures.app.get(TokensService).issue({ userId: user.id, teamId: team.id, clientId: 'test' });
      const path = `/team/orders`;
      const before = api.seen.length;
      const response = await send('POST', path, { authorization: `Bearer ${token}` });
      expect({ status: response.status, body: response.text }).toEqual({ status: 200, body: JSON.stringify({ served: path }) });
      expect(api.seen.slice(before).find((request) => request.url === path)?.headers).toMatchObject({
        'x-eidgw-team': team.id,
        'x-eidgw-user': user.id,
      });
    });
  });
});
