import { Controller, Get } from '@nestjs/common';
import { generateApiKey } from '../../../src/api-keys/api-key-format.js';
import { ApiKeysService } from '../../../src/api-keys/api-keys.service.js';
import { ManagementEndpoint, RequireFeatures, Scopes } from '../../../src/auth/access.decorators.js';
import { useE2eApp } from '../../support/e2e.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { expectProblem } from '../../support/problem.js';
import { expectMatchesSchema } from '../../support/openapi.js';

// Routes that exercise the decorators whose production routes arrive with later features.
@Controller('test-probe')
class ProbeController {
  @Get('enterprise')
  @Scopes('sessions:read')
  @RequireFeatures('max', 'enterprise')
  enterprise() {
    return { ok: true };
  }

  @Get('management')
  @ManagementEndpoint()
  management() {
    return { ok: true };
  }
}

describe('API keys: authentication and its error codes (docs/api.md)', () => {
  const e2e = useE2eApp({ controllers: [ProbeController] });

  const startWith = (key?: string) => {
    const req = e2e.http
      .post('/api/v1/auth/simulator/start')
      .send({ endUserIp: '192.0.2.1' })
      .expect((res) => expectMatchesSchema(res, 'POST /api/v1/auth/{provider}/start'));
    return key === undefined ? req : req.set('x-api-key', key);
  };

  it('should accept a valid key in the x-api-key header and in ?key=', async () => {
    const { key } = await createTeamWithKey(e2e.app);
    await startWith(key).expect(200);
    await e2e.http.post(`/api/v1/auth/simulator/start?key=${key}`).send({ endUserIp: '192.0.2.1' }).expect(200);
  });

  it('should answer 401 missing_token without a credential', async () => {
    expectProblem(await startWith(), 401, 'missing_token');
  });

  it.each([
    ['a malformed key', 'hello'],
    ['a well-formed key with a bad checksum', 'eidk_test_' + 'A'.repeat(38)],
  ])('should answer 401 invalid_api_key for %s', async (_name, key) => {
    expectProblem(await startWith(key), 401, 'invalid_api_key');
  });

  it('should answer 401 invalid_api_key for an unknown and for a revoked key', async () => {
    const { apiKey, key } = await createTeamWithKey(e2e.app);
    await e2e.app.get(ApiKeysService).revoke(apiKey.id);
    expectProblem(await startWith(key), 401, 'invalid_api_key');
    // Well-formed, valid checksum, never issued here.
    expectProblem(await startWith(generateApiKey('test').key), 401, 'invalid_api_key');
  });

  it('should answer 403 api_key_blocked while a block lasts, and accept the key after it', async () => {
    const { apiKey, key } = await createTeamWithKey(e2e.app);
    await e2e.app.get(ApiKeysService).block(apiKey.id, new Date(e2e.clock.nowMs() + 60_000));
    expectProblem(await startWith(key), 403, 'api_key_blocked');
    e2e.clock.advance(61_000);
    await startWith(key).expect(200);
    e2e.clock.advance(-61_000);
  });

  it('should answer 403 api_key_expired past valid-until', async () => {
    const { key } = await createTeamWithKey(e2e.app, { key: { validUntil: new Date(Date.now() - 1000) } });
    expectProblem(await startWith(key), 403, 'api_key_expired');
  });

  it('should answer 403 subscription_required for a team without a subscription', async () => {
    const { key } = await createTeamWithKey(e2e.app, { subscriptionEndsAt: undefined });
    expectProblem(await startWith(key), 403, 'subscription_required');
  });

  it('should answer 403 subscription_expired once the subscription ended', async () => {
    const { key } = await createTeamWithKey(e2e.app, { subscriptionEndsAt: new Date(Date.now() - 1000) });
    expectProblem(await startWith(key), 403, 'subscription_expired');
  });

  it("should answer 403 insufficient_scope for a key without the route's scope", async () => {
    const { key } = await createTeamWithKey(e2e.app, { scopes: ['sessions:read'] });
    const res = await startWith(key);
    expectProblem(res, 403, 'insufficient_scope');
    expect(res.body.scopes).toEqual(['sessions:write']);
  });

  it('should answer 403 feature_required listing only the missing features', async () => {
    const { key } = await createTeamWithKey(e2e.app, { plan: 'max' });
    const res = await e2e.http.get('/test-probe/enterprise').set('x-api-key', key);
    expectProblem(res, 403, 'feature_required');
    expect(res.body.features).toEqual(['enterprise']);
    const enterprise = await createTeamWithKey(e2e.app, { plan: 'enterprise' });
    await e2e.http.get('/test-probe/enterprise').set('x-api-key', enterprise.key).expect(200);
  });

  it('should answer 403 endpoint_not_available for an API key on a route that is not a public API endpoint', async () => {
    const { key } = await createTeamWithKey(e2e.app);
    expectProblem(await e2e.http.get('/test-probe/management').set('x-api-key', key), 403, 'endpoint_not_available');
  });

  it('should check the key before the endpoint kind (an invalid key on a management route is 401)', async () => {
    expectProblem(await e2e.http.get('/test-probe/management').set('x-api-key', 'nope'), 401, 'invalid_api_key');
  });

  it('should answer 401 invalid_token with a Bearer challenge for a bearer token it cannot verify', async () => {
    const res = await e2e.http.get('/test-probe/management').set('authorization', 'Bearer abc.def.ghi');
    expectProblem(res, 401, 'invalid_token');
    expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('should check authentication before validating the body', async () => {
    const res = await e2e.http.post('/api/v1/auth/simulator/start').send({ endUserIp: 'bad' });
    expectProblem(res, 401, 'missing_token');
  });
});
