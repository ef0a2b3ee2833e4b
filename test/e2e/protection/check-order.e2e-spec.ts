import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '../../../src/api-keys/api-keys.service.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { useE2eApp } from '../../support/e2e.js';
import { expectValidationProblem } from '../../support/problem.js';

// docs/protection.md, "Order of checks": IP block → input guard → authentication → key state, subscription → scope, feature,
// endpoint kind → rate limits (only requests that got this far count) → body validation → handler.
describe('Order of checks', () => {
  const e2e = useE2eApp({ env: { TRUST_PROXY: '127.0.0.1,::1' }, freezeClock: true });
  let nextClient = 1;
  const newClientIp = () => `198.51.100.${nextClient++}`;

  const start = (ip: string, body: object, key?: string) => {
    const req = e2e.http.post('/api/v1/auth/simulator/start').set('x-forwarded-for', ip).send(body);
    return key === undefined ? req : req.set('x-api-key', key);
  };
  const answer = async (req: request.Test) => {
    const res = await req;
    return [res.status, res.body.code ?? null];
  };
  const ATTACK = { endUserIp: '192.0.2.1', userVisibleData: "' OR 1=1--" };
  const INVALID = { endUserIp: 'not an address' };
  const VALID = { endUserIp: '192.0.2.1' };

  it('should answer ip_blocked before the input guard', async () => {
    const ip = newClientIp();
    for (let i = 0; i < 10; i++) await start(ip, VALID, 'eidk_test_wrong').expect(401);
    expect(await answer(start(ip, ATTACK))).toEqual([401, 'ip_blocked']);
  });

  it('should answer the input guard before authentication, and not count it as a failed attempt', async () => {
    const ip = newClientIp();
    expect(await answer(start(ip, ATTACK))).toEqual([400, null]);
    for (let i = 0; i < 11; i++) expect(await answer(start(ip, ATTACK, 'eidk_test_wrong'))).toEqual([400, null]);
    const { key } = await createTeamWithKey(e2e.app);
    expect(await answer(start(ip, VALID, key))).toEqual([200, null]);
  });

  it('should authenticate before checking the key state, and the key state before the scope', async () => {
    const ip = newClientIp();
    expect(await answer(start(ip, INVALID, 'eidk_test_wrong'))).toEqual([401, 'invalid_api_key']);
    const { apiKey, key } = await createTeamWithKey(e2e.app, { scopes: ['sessions:read'], key: { perMinuteLimit: 1 } });
    await e2e.app.get(ApiKeysService).block(apiKey.id, new Date(e2e.clock.nowMs() + 60_000));
    expect(await answer(start(ip, INVALID, key))).toEqual([403, 'api_key_blocked']);
    const expired = await createTeamWithKey(e2e.app, { scopes: ['sessions:read'], subscriptionEndsAt: new Date(e2e.clock.nowMs() - 1) });
    expect(await answer(start(ip, INVALID, expired.key))).toEqual([403, 'subscription_expired']);
  });

  it('should check the scope before the rate limits, and not count refused requests against the limits', async () => {
    const ip = newClientIp();
    const { key } = await createTeamWithKey(e2e.app, { scopes: ['sessions:read'], key: { perMinuteLimit: 1 } });
    for (let i = 0; i < 3; i++) expect(await answer(start(ip, VALID, key))).toEqual([403, 'insufficient_scope']);
    // The key's one request of the minute is still there.
    expect(await answer(e2e.http.post(`/api/v1/auth/${randomUUID()}/poll`).set('x-api-key', key))).toEqual([404, 'session_not_found']);
    expect(await answer(start(ip, VALID, key))).toEqual([403, 'insufficient_scope']);
    expect(await answer(e2e.http.post(`/api/v1/auth/${randomUUID()}/poll`).set('x-api-key', key))).toEqual([429, 'rate_limit_exceeded']);
  });

  it('should apply the rate limits before body validation, and count requests that fail validation', async () => {
    const ip = newClientIp();
    const { key } = await createTeamWithKey(e2e.app, { key: { perMinuteLimit: 2 } });
    const invalid = await start(ip, INVALID, key);
    expect(expectValidationProblem(invalid)).toEqual(['/endUserIp']);
    expect(invalid.headers['ratelimit-remaining']).toBe('1');
    await start(ip, INVALID, key).expect(400);
    expect(await answer(start(ip, INVALID, key))).toEqual([429, 'rate_limit_exceeded']);
    expect(await answer(start(ip, VALID, key))).toEqual([429, 'rate_limit_exceeded']);
  });

  it('should validate the body before the handler runs', async () => {
    const { key } = await createTeamWithKey(e2e.app);
    const sessions = async () => Number((await e2e.app.get(DataSource).query<{ n: string }[]>('SELECT count(*) AS n FROM sessions'))[0].n);
    const before = await sessions();
    await start(newClientIp(), INVALID, key).expect(400);
    expect(await sessions()).toBe(before);
  });
});
