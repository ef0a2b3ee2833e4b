import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { CreateApiKeyInput } from '../../../src/api-keys/api-keys.service.js';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { protectionBackends } from '../../support/protection-backends.js';
import { useE2eApp } from '../../support/e2e.js';

const { backends, redisSkipped } = await protectionBackends();

// Tests start 10 minutes before the turn of a month (UTC), so month limits can be seen to reset.
const TURN_OF_MONTH = Date.UTC(2026, 11, 1);
const NOVEMBER_SECONDS = 30 * 86_400;

describe.each(backends)('Per-key rate limits ($name)', (backend) => {
  const protection = backend.env();
  afterAll(() => backend.cleanUp(protection));
  const e2e = useE2eApp({ env: { ...protection, TRUST_PROXY: '127.0.0.1,::1' }, freezeClock: () => TURN_OF_MONTH - 10 * 60_000 });

  const keyWith = async (limits: Partial<CreateApiKeyInput>) => (await createTeamWithKey(e2e.app, { key: limits })).key;
  const poll = (key: string, clientIp = '198.51.100.1') =>
    e2e.http.post(`/api/v1/auth/${randomUUID()}/poll`).set('x-api-key', key).set('x-forwarded-for', clientIp);
  const expectRejected = (res: request.Response) => {
    expect(res.status).toBe(429);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 429, code: 'rate_limit_exceeded', type: 'urn:eid-gateway:problem:rate_limit_exceeded' });
    expect(res.headers['ratelimit-remaining']).toBe('0');
    return res;
  };

  it('should admit N requests per sliding minute, answer 429 with Retry-After and RateLimit headers beyond, and admit again as the window slides', async () => {
    const key = await keyWith({ perMinuteLimit: 3 });
    // The clock stands on a whole second: a request counts until 61 one-second buckets have passed its own.
    const first = await poll(key).expect(404);
    expect(first.headers).toMatchObject({
      'ratelimit-limit': '3',
      'ratelimit-remaining': '2',
      'ratelimit-reset': '61',
      'ratelimit-policy': '3;w=60',
    });
    e2e.clock.advance(20_000);
    expect((await poll(key).expect(404)).headers['ratelimit-remaining']).toBe('1');
    e2e.clock.advance(20_000);
    const last = await poll(key).expect(404);
    expect(last.headers).toMatchObject({ 'ratelimit-remaining': '0', 'ratelimit-reset': '21' });

    e2e.clock.advance(20_999);
    const refused = expectRejected(await poll(key));
    expect(refused.body.limit).toBe('per_minute');
    expect(refused.headers).toMatchObject({
      'retry-after': '1',
      'ratelimit-limit': '3',
      'ratelimit-reset': '1',
      'ratelimit-policy': '3;w=60',
    });

    // 61 s after the first request its second stops counting: one place, not three (not a fixed window).
    e2e.clock.advance(1);
    expect((await poll(key).expect(404)).headers['ratelimit-remaining']).toBe('0');
    expectRejected(await poll(key));
  });

  it('should never admit more than N in any 60 s while requests keep coming', async () => {
    const key = await keyWith({ perMinuteLimit: 5 });
    const accepted: number[] = [];
    for (let step = 0; step < 60; step++) {
      if ((await poll(key)).status !== 429) accepted.push(e2e.clock.nowMs());
      e2e.clock.advance(7_000);
    }
    for (const at of accepted) expect(accepted.filter((t) => t >= at && t < at + 60_000).length).toBeLessThanOrEqual(5);
    // 60 requests 7 s apart: bursts of 5 every 63 s (the first request of a burst frees its place 61 s on, docs/protection.md).
    expect(accepted.length).toBe(35);
  });

  it('should not let rejected requests consume the monthly quota', async () => {
    const key = await keyWith({ perMinuteLimit: 2, monthlyLimit: 3 });
    await poll(key).expect(404);
    await poll(key).expect(404);
    for (let i = 0; i < 5; i++) expect(expectRejected(await poll(key)).body.limit).toBe('per_minute');
    e2e.clock.advance(61_000);
    const third = await poll(key).expect(404);
    expect(third.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '0' });
  });

  it('should refuse past the monthly limit until the calendar month ends (UTC)', async () => {
    const key = await keyWith({ monthlyLimit: 2 });
    const first = await poll(key).expect(404);
    expect(first.headers).toMatchObject({
      'ratelimit-limit': '2',
      'ratelimit-remaining': '1',
      'ratelimit-reset': '600',
      'ratelimit-policy': `2;w=${NOVEMBER_SECONDS}`,
    });
    await poll(key).expect(404);
    const refused = expectRejected(await poll(key));
    expect(refused.body.limit).toBe('monthly');
    expect(refused.headers).toMatchObject({ 'retry-after': '600', 'ratelimit-reset': '600' });

    e2e.clock.advance(599_999);
    expectRejected(await poll(key));
    e2e.clock.advance(1);
    const december = await poll(key).expect(404);
    expect(december.headers).toMatchObject({ 'ratelimit-remaining': '1', 'ratelimit-policy': `2;w=${31 * 86_400}` });
  });

  it('should limit the distinct client IPs of a month, keep admitting known ones, and start over next month', async () => {
    const key = await keyWith({ ipLimit: 2 });
    await poll(key, '198.51.100.10').expect(404);
    await poll(key, '198.51.100.11').expect(404);
    const refused = expectRejected(await poll(key, '198.51.100.12'));
    expect(refused.body.limit).toBe('client_addresses');
    expect(refused.headers).toMatchObject({
      'retry-after': '600',
      'ratelimit-limit': '2',
      'ratelimit-policy': `2;w=${NOVEMBER_SECONDS};comment="distinct client IPs"`,
    });
    await poll(key, '198.51.100.10').expect(404);
    e2e.clock.advance(600_000);
    await poll(key, '198.51.100.12').expect(404);
  });

  it('should refuse with the limit that lasts longest when several are reached', async () => {
    const key = await keyWith({ perMinuteLimit: 1, monthlyLimit: 1 });
    await poll(key).expect(404);
    const refused = expectRejected(await poll(key));
    expect(refused.body.limit).toBe('monthly');
    expect(refused.headers['retry-after']).toBe('600');
  });

  it('should send no RateLimit headers for a key without limits, nor limit requests without an API key', async () => {
    const unlimited = await createTeamWithKey(e2e.app);
    const res = await poll(unlimited.key).expect(404);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
    for (let i = 0; i < 5; i++) await e2e.http.get('/health/live').expect(200);
  });

  it('should count each key on its own', async () => {
    const [a, b] = [await keyWith({ perMinuteLimit: 1 }), await keyWith({ perMinuteLimit: 1 })];
    await poll(a).expect(404);
    await poll(b).expect(404);
    expectRejected(await poll(a));
  });

  it('should admit exactly N of many concurrent requests, and exactly the monthly limit', async () => {
    const perMinute = await keyWith({ perMinuteLimit: 7 });
    const minuteBurst = await Promise.all(Array.from({ length: 30 }, () => poll(perMinute)));
    expect(minuteBurst.filter((res) => res.status === 404)).toHaveLength(7);
    expect(minuteBurst.filter((res) => res.status === 429)).toHaveLength(23);

    // Five client IPs, six requests each: the first three IPs seen get in, and the month's 9 with them.
    const monthly = await keyWith({ monthlyLimit: 9, ipLimit: 3 });
    const clientIp = (i: number) => `198.51.100.${20 + (i % 5)}`;
    const monthBurst = await Promise.all(Array.from({ length: 30 }, (_, i) => poll(monthly, clientIp(i))));
    const admitted = monthBurst.flatMap((res, i) => (res.status === 404 ? [clientIp(i)] : []));
    expect(admitted).toHaveLength(9);
    expect(new Set(admitted).size).toBe(3);
  });

  it('should admit a busy key from a local allowance and count in the month exactly what it admitted once the blocks end', async () => {
    const { team, apiKey, key } = await createTeamWithKey(e2e.app, {
      key: { perMinuteLimit: 1_000_000, monthlyLimit: 1_000_000, ipLimit: 5 },
    });
    const user = await e2e.app.get(UsersService).create({ teamId: team.id, email: `member-${randomUUID()}@example.com` });
    const { token } = await e2e.app.get(TokensService).issue({ userId: user.id, teamId: team.id, clientId: 'test' });
    const usage = async () => {
      const keys: { id: string; usageThisMonth: object }[] = (
        await e2e.http.get('/api/v1/api-keys').set('authorization', `Bearer ${token}`).expect(200)
      ).body;
      return keys.find((listed) => listed.id === apiKey.id)!.usageThisMonth;
    };

    const burst = await Promise.all(Array.from({ length: 100 }, () => poll(key)));
    expect(burst.map((res) => res.status)).toEqual(Array(100).fill(404));
    // Admissions from one block report the count of its reservation: fewer distinct counts than requests.
    expect(new Set(burst.map((res) => res.headers['ratelimit-remaining'])).size).toBeLessThan(100);

    // The next second ends the blocks; their unused admissions go back to the month (docs/protection.md, "Allowance").
    e2e.clock.advance(1_000);
    await poll(key).expect(404);
    const deadline = Date.now() + 5_000;
    while (JSON.stringify(await usage()) !== JSON.stringify({ requests: 101, addresses: 1 }) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await usage()).toEqual({ requests: 101, addresses: 1 });
  });
});

if (redisSkipped) it.skip('Redis variants of the rate-limit tests (Redis unreachable)', () => undefined);
