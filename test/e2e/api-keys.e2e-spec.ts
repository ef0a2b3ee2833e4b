import { Controller, Get } from '@nestjs/common';
import request from 'supertest';
import { generateApiKey } from '../../src/api-keys/api-key-format.js';
import { ApiKeysService } from '../../src/api-keys/api-keys.service.js';
import { ManagementEndpoint, RequireFeatures, Scopes } from '../../src/common/access/access.decorators.js';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../support/create-test-app.js';
import { createTeamWithKey } from '../support/fixtures.js';

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

describe('API keys: authentication and the error codes of SPEC 6', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let http: ReturnType<typeof request>;

  const startWith = (key?: string) => {
    const req = http.post('/api/v1/auth/simulator/start').send({ endUserIp: '192.0.2.1' });
    return key === undefined ? req : req.set('x-api-key', key);
  };
  const expectProblem = async (res: request.Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: `urn:eid-gateway:problem:${code}`, status, code, title: expect.any(String), detail: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/eidk_(test|live)_/);
    if (status === 401) expect(res.headers['www-authenticate']).toMatch(/realm="eid-gateway"/);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    testApp = await createTestApp(database.env, { controllers: [ProbeController] });
    http = request(testApp.app.getHttpServer());
  });

  afterAll(async () => {
    await testApp?.close();
    await database?.drop();
  });

  it('should accept a valid key in the x-api-key header and in ?key=', async () => {
    const { key } = await createTeamWithKey(testApp.app);
    await startWith(key).expect(200);
    await http.post(`/api/v1/auth/simulator/start?key=${key}`).send({ endUserIp: '192.0.2.1' }).expect(200);
  });

  it('should answer 401 missing_token without a credential', async () => {
    await expectProblem(await startWith(), 401, 'missing_token');
  });

  it.each([
    ['a malformed key', 'hello'],
    ['a well-formed key with a bad checksum', 'eidk_test_' + 'A'.repeat(38)],
  ])('should answer 401 invalid_api_key for %s', async (_name, key) => {
    await expectProblem(await startWith(key), 401, 'invalid_api_key');
  });

  it('should answer 401 invalid_api_key for an unknown and for a revoked key', async () => {
    const { apiKey, key } = await createTeamWithKey(testApp.app);
    await testApp.app.get(ApiKeysService).revoke(apiKey.id);
    await expectProblem(await startWith(key), 401, 'invalid_api_key');
    // Well-formed, valid checksum, never issued here.
    await expectProblem(await startWith(generateApiKey('test').key), 401, 'invalid_api_key');
  });

  it('should answer 403 api_key_blocked while a block lasts, and accept the key after it', async () => {
    const { apiKey, key } = await createTeamWithKey(testApp.app);
    await testApp.app.get(ApiKeysService).block(apiKey.id, new Date(testApp.clock.nowMs() + 60_000));
    await expectProblem(await startWith(key), 403, 'api_key_blocked');
    testApp.clock.advance(61_000);
    await startWith(key).expect(200);
    testApp.clock.advance(-61_000);
  });

  it('should answer 403 api_key_expired past valid-until', async () => {
    const { key } = await createTeamWithKey(testApp.app, { key: { validUntil: new Date(Date.now() - 1000) } });
    await expectProblem(await startWith(key), 403, 'api_key_expired');
  });

  it('should answer 403 subscription_required for a team without a subscription', async () => {
    const { key } = await createTeamWithKey(testApp.app, { subscriptionEndsAt: undefined });
    await expectProblem(await startWith(key), 403, 'subscription_required');
  });

  it('should answer 403 subscription_expired once the subscription ended', async () => {
    const { key } = await createTeamWithKey(testApp.app, { subscriptionEndsAt: new Date(Date.now() - 1000) });
    await expectProblem(await startWith(key), 403, 'subscription_expired');
  });

  it('should answer 403 insufficient_scope for a key without the route\'s scope', async () => {
    const { key } = await createTeamWithKey(testApp.app, { scopes: ['sessions:read'] });
    const res = await startWith(key);
    await expectProblem(res, 403, 'insufficient_scope');
    expect(res.body.scopes).toEqual(['sessions:write']);
  });

  it('should answer 403 feature_required listing only the missing features', async () => {
    const { key } = await createTeamWithKey(testApp.app, { plan: 'max' });
    const res = await http.get('/test-probe/enterprise').set('x-api-key', key);
    await expectProblem(res, 403, 'feature_required');
    expect(res.body.features).toEqual(['enterprise']);
    const enterprise = await createTeamWithKey(testApp.app, { plan: 'enterprise' });
    await http.get('/test-probe/enterprise').set('x-api-key', enterprise.key).expect(200);
  });

  it('should answer 403 endpoint_not_available for an API key on a route that is not a public API endpoint', async () => {
    const { key } = await createTeamWithKey(testApp.app);
    await expectProblem(await http.get('/test-probe/management').set('x-api-key', key), 403, 'endpoint_not_available');
  });

  it('should check the key before the endpoint kind (an invalid key on a management route is 401)', async () => {
    await expectProblem(await http.get('/test-probe/management').set('x-api-key', 'nope'), 401, 'invalid_api_key');
  });

  it('should answer 401 invalid_token with a Bearer challenge for a bearer token it cannot verify', async () => {
    const res = await http.get('/test-probe/management').set('authorization', 'Bearer abc.def.ghi');
    await expectProblem(res, 401, 'invalid_token');
    expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('should check authentication before validating the body', async () => {
    const res = await http.post('/api/v1/auth/simulator/start').send({ endUserIp: 'bad' });
    await expectProblem(res, 401, 'missing_token');
  });
});
