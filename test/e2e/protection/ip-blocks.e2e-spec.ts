import { randomUUID } from 'node:crypto';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../../support/create-test-app.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { protectionBackends } from '../../support/protection-backends.js';
import { httpOf, useE2eApp, type Http } from '../../support/e2e.js';

const { backends, redisSkipped } = await protectionBackends();

const FIFTEEN_MINUTES = 15 * 60_000;
// Supertest connects from loopback, as IPv4 or IPv4-mapped IPv6: trusting both lets each test
// speak for a client address of its own through X-Forwarded-For.
const LOOPBACK = '127.0.0.1,::1';
let nextClient = 1;
const newClientIp = () => `198.51.100.${nextClient++}`;

describe.each(backends)('Failed-attempt IP blocks ($name)', (backend) => {
  const protection = backend.env();
  afterAll(() => backend.cleanUp(protection));
  const e2e = useE2eApp({ env: { ...protection, TRUST_PROXY: LOOPBACK }, withKey: true, freezeClock: true });

  const poll = (ip: string, apiKey?: string) => {
    const req = e2e.http.post(`/api/v1/auth/${randomUUID()}/poll`).set('x-forwarded-for', ip);
    return apiKey === undefined ? req : req.set('x-api-key', apiKey);
  };
  const fail = async (ip: string, times: number) => {
    for (let i = 0; i < times; i++) expect((await poll(ip, 'eidk_test_wrong').expect(401)).body.code).toBe('invalid_api_key');
  };

  it('should block an address on its 10th failed attempt: the 11th request answers 401 ip_blocked, even with a valid key', async () => {
    const ip = newClientIp();
    await fail(ip, 9);
    await poll(ip, e2e.key).expect(404);
    await fail(ip, 1);

    const blocked = await poll(ip, e2e.key).expect(401);
    expect(blocked.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(blocked.body).toMatchObject({
      status: 401,
      code: 'ip_blocked',
      title: 'Unauthorized',
      type: 'urn:eid-gateway:problem:ip_blocked',
    });
    expect(blocked.headers['retry-after']).toBe('900');
    expect(blocked.headers['www-authenticate']).toMatch(/realm="eid-gateway"/);
    // Every request, public ones included, and without counting further failures.
    expect((await e2e.http.get('/health/live').set('x-forwarded-for', ip).expect(401)).body.code).toBe('ip_blocked');
    expect((await poll(ip, 'eidk_test_wrong').expect(401)).body.code).toBe('ip_blocked');
    // Other addresses are not affected.
    await poll(newClientIp(), e2e.key).expect(404);
  });

  it('should count down Retry-After and end the block by itself after 15 minutes', async () => {
    const ip = newClientIp();
    await fail(ip, 10);
    e2e.clock.advance(FIFTEEN_MINUTES - 60_500);
    expect((await poll(ip, e2e.key).expect(401)).headers['retry-after']).toBe('61');
    e2e.clock.advance(60_500);
    await poll(ip, e2e.key).expect(404);
    // The block wiped the count: one new failure does not block again.
    await fail(ip, 1);
    await poll(ip, e2e.key).expect(404);
  });

  it('should count only failures within the last 15 minutes (a sliding window)', async () => {
    const ip = newClientIp();
    await fail(ip, 5);
    e2e.clock.advance(10 * 60_000);
    await fail(ip, 4);
    e2e.clock.advance(5 * 60_000 + 1);
    // The first five are now older than 15 minutes: 4 + 1 = 5 failures in the window.
    await fail(ip, 1);
    await poll(ip, e2e.key).expect(404);
    await fail(ip, 5);
    expect((await poll(ip, e2e.key).expect(401)).body.code).toBe('ip_blocked');
  });

  it('should not count a missing credential, nor requests the e2e.key itself refuses', async () => {
    const ip = newClientIp();
    for (let i = 0; i < 12; i++) expect((await poll(ip).expect(401)).body.code).toBe('missing_token');
    const readOnly = await createTeamWithKey(e2e.app, { scopes: ['sessions:read'] });
    for (let i = 0; i < 12; i++) {
      const res = await e2e.http
        .post('/api/v1/auth/simulator/start')
        .set('x-forwarded-for', ip)
        .set('x-api-key', readOnly.key)
        .send({ endUserIp: '192.0.2.1' });
      expect(res.body.code).toBe('insufficient_scope');
    }
    await poll(ip, e2e.key).expect(404);
  });

  it('should count invalid bearer tokens and invalid API keys alike', async () => {
    const ip = newClientIp();
    for (let i = 0; i < 5; i++) {
      const res = await e2e.http
        .post(`/api/v1/auth/${randomUUID()}/poll`)
        .set('x-forwarded-for', ip)
        .set('authorization', 'Bearer not.a.token');
      expect(res.body.code).toBe('invalid_token');
    }
    await fail(ip, 5);
    expect((await poll(ip, e2e.key).expect(401)).body.code).toBe('ip_blocked');
  });

  it("should not count wrong or spent OTP codes sent with a valid key: they are the end user's, not the caller's", async () => {
    const ip = newClientIp();
    const otp = await createTeamWithKey(e2e.app, { scopes: ['otp'] });
    for (let i = 0; i < 12; i++) {
      const res = await e2e.http
        .post('/ask_for_approval/login-otp-validate')
        .set('x-forwarded-for', ip)
        .set('x-api-key', otp.key)
        .send({ userGuid: randomUUID(), validationCode: '123456' });
      expect(res.body.code).toBe('validation_code_expired');
    }
    await poll(ip, e2e.key).expect(404);
  });

  it('should not count a well-signed bearer token that merely expired', async () => {
    const ip = newClientIp();
    const { team, apiKey } = await createTeamWithKey(e2e.app);
    const { token } = await e2e.app.get(TokensService).issue({ userId: randomUUID(), teamId: team.id, clientId: apiKey.id });
    e2e.clock.advance(2 * 60 * 60_000);
    for (let i = 0; i < 12; i++) {
      const res = await e2e.http.get('/api/v1/me').set('x-forwarded-for', ip).set('authorization', `Bearer ${token}`);
      expect(res.body).toMatchObject({ code: 'invalid_token', detail: expect.stringContaining('expired') });
    }
    await poll(ip, e2e.key).expect(404);
  });

  it('should count a burst of concurrent failures exactly: the 10th of them blocks', async () => {
    const ip = newClientIp();
    await fail(ip, 4);
    const burst = await Promise.all(Array.from({ length: 6 }, () => poll(ip, 'eidk_test_wrong')));
    expect(burst.map((res) => res.body.code)).toEqual(Array(6).fill('invalid_api_key'));
    expect((await poll(ip, e2e.key).expect(401)).body.code).toBe('ip_blocked');
  });
});

describe.each(backends)('Client address and configurable thresholds ($name)', (backend) => {
  // Each test gets a database of its own: the loopback address it may block must not leak into the next.
  const apps: { app: TestApp; database: TestDatabase; env: Record<string, string> }[] = [];

  const start = async (extra: Record<string, string>) => {
    const database = await createTestDatabase();
    const env = { ...database.env, ...backend.env(), ...extra };
    const app = await createTestApp(env);
    apps.push({ app, database, env });
    app.clock.freeze();
    return { app, http: httpOf(app.app) };
  };
  const wrongKey = (http: Http, forwardedFor?: string) => {
    const req = http.post(`/api/v1/auth/${randomUUID()}/poll`).set('x-api-key', 'eidk_test_wrong');
    return forwardedFor ? req.set('x-forwarded-for', forwardedFor) : req;
  };

  afterEach(async () => {
    for (const { app, database, env } of apps.splice(0)) {
      await app.close();
      await database.drop();
      await backend.cleanUp(env);
    }
  });

  it('should ignore X-Forwarded-For from a peer that is not a trusted proxy: spoofed addresses all count against the socket address', async () => {
    const { http } = await start({ TRUST_PROXY: '', IP_BLOCK_THRESHOLD: '3' });
    for (let i = 0; i < 3; i++) await wrongKey(http, `203.0.113.${i}`).expect(401);
    expect((await wrongKey(http, '203.0.113.99').expect(401)).body.code).toBe('ip_blocked');
    expect((await http.get('/health/live').expect(401)).body.code).toBe('ip_blocked');
  });

  it('should take the client address from X-Forwarded-For through a trusted proxy, and only the hops after it', async () => {
    const { http } = await start({ TRUST_PROXY: LOOPBACK, IP_BLOCK_THRESHOLD: '3' });
    // The client may prepend any address it likes; the proxy appends the one it saw.
    for (let i = 0; i < 3; i++) await wrongKey(http, `10.9.9.${i}, 203.0.113.7`).expect(401);
    expect((await http.get('/health/live').set('x-forwarded-for', '203.0.113.7').expect(401)).body.code).toBe('ip_blocked');
    await http.get('/health/live').set('x-forwarded-for', '203.0.113.8').expect(200);
    // The proxy's own address is not blocked.
    await http.get('/health/live').expect(200);
  });

  it('should never block nor count an address of IP_BLOCK_EXEMPT (addresses and CIDRs)', async () => {
    const { http } = await start({ TRUST_PROXY: LOOPBACK, IP_BLOCK_THRESHOLD: '3', IP_BLOCK_EXEMPT: '203.0.113.0/24, 192.0.2.7' });
    for (const exempt of ['203.0.113.9', '192.0.2.7']) {
      for (let i = 0; i < 6; i++) expect((await wrongKey(http, exempt).expect(401)).body.code).toBe('invalid_api_key');
    }
    for (let i = 0; i < 3; i++) await wrongKey(http, '192.0.2.8').expect(401);
    expect((await wrongKey(http, '192.0.2.8').expect(401)).body.code).toBe('ip_blocked');
  });

  it('should group IPv6 clients by /64', async () => {
    const { http } = await start({ TRUST_PROXY: LOOPBACK, IP_BLOCK_THRESHOLD: '3' });
    for (let i = 1; i <= 3; i++) await wrongKey(http, `2001:db8:1:2::${i}`).expect(401);
    expect((await http.get('/health/live').set('x-forwarded-for', '2001:db8:1:2:ffff::9').expect(401)).body.code).toBe('ip_blocked');
    await http.get('/health/live').set('x-forwarded-for', '2001:db8:1:3::1').expect(200);
  });

  it('should apply IP_BLOCK_THRESHOLD, IP_BLOCK_WINDOW and IP_BLOCK_DURATION', async () => {
    const { app, http } = await start({ TRUST_PROXY: LOOPBACK, IP_BLOCK_THRESHOLD: '2', IP_BLOCK_WINDOW: '1m', IP_BLOCK_DURATION: '2m' });
    await wrongKey(http, '203.0.113.20').expect(401);
    app.clock.advance(60_000);
    await wrongKey(http, '203.0.113.20').expect(401);
    await http.get('/health/live').set('x-forwarded-for', '203.0.113.20').expect(200);
    await wrongKey(http, '203.0.113.20').expect(401);
    const blocked = await http.get('/health/live').set('x-forwarded-for', '203.0.113.20').expect(401);
    expect(blocked.headers['retry-after']).toBe('120');
    app.clock.advance(120_000);
    await http.get('/health/live').set('x-forwarded-for', '203.0.113.20').expect(200);
  });
});

if (redisSkipped) it.skip('Redis variants of the IP-block tests (Redis unreachable)', () => undefined);
