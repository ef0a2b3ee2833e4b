import request from 'supertest';
import { ApiKeysService } from '../../src/api-keys/api-keys.service.js';
import { FakeBankIdServer } from '../fakes/bankid-rp-fake.js';
import { createTestPki, type TestPki } from '../fakes/test-certificates.js';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../support/create-test-app.js';
import { createTeamWithKey } from '../support/fixtures.js';

const COLLECT_MS = 2_000;

/** docs/security.md: a team's test and live worlds never see each other's sessions. */
describe('Sessions kept apart by environment', () => {
  let pki: TestPki;
  let fake: FakeBankIdServer;
  let database: TestDatabase;
  let testApp: TestApp;
  let http: ReturnType<typeof request>;
  let testKey: string;
  let liveKey: string;

  const routes = (id: string, key: string) => [
    http.post(`/api/v1/auth/${id}/poll`).set('x-api-key', key),
    http.get(`/api/v1/auth/${id}/qr`).set('x-api-key', key),
    http.post(`/api/v1/auth/${id}/cancel`).set('x-api-key', key),
  ];

  beforeAll(async () => {
    pki = await createTestPki();
    fake = await FakeBankIdServer.start({
      key: pki.server.key,
      cert: pki.server.cert,
      clientCa: pki.rpCa,
      authorizedClients: ['Fake RP'],
      now: () => testApp.clock.now(),
    });
    database = await createTestDatabase();
    // The live side of the BankID provider, pointed at the fake: a live session without real BankID.
    testApp = await createTestApp({
      ...database.env,
      PROVIDERS: 'simulator,bankid',
      BANKID_URL: fake.url,
      BANKID_CERT: pki.client.certPath,
      BANKID_KEY: pki.client.keyPath,
      BANKID_CA: pki.bankIdCaPath,
      BANKID_TIMEOUT: '400ms',
      BANKID_RETRY_SCHEDULE: '10ms,20ms',
    });
    testApp.stopBackgroundJobs();
    http = request(testApp.app.getHttpServer());
    const created = await createTeamWithKey(testApp.app, { environment: 'test' });
    testKey = created.key;
    ({ key: liveKey } = await testApp.app.get(ApiKeysService).create({ teamId: created.team.id, environment: 'live', scopes: ['sessions:read', 'sessions:write'] }));
  });

  beforeEach(() => testApp.clock.freeze());

  afterAll(async () => {
    await testApp?.close();
    await fake?.close();
    await database?.drop();
    await pki?.remove();
  });

  it('should hide a live session from a test key of the same team on every session route', async () => {
    const started = (await http.post('/api/v1/auth/bankid/start').set('x-api-key', liveKey).send({ endUserIp: '192.0.2.10' }).expect(200)).body;
    fake.approve(fake.openWithAutoStartToken(started.autoStartToken));
    testApp.clock.advance(COLLECT_MS);
    const live = await http.post(`/api/v1/auth/${started.sessionId}/poll`).set('x-api-key', liveKey).expect(200);
    expect(live.body).toMatchObject({ environment: 'live', status: 'complete', user: expect.any(Object) });

    for (const call of routes(started.sessionId, testKey)) {
      const answer = await call;
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: 'session_not_found' });
      expect(JSON.stringify(answer.body)).not.toContain(live.body.user.personalNumber);
    }
  });

  it('should hide a simulated test session from a live key of the same team, as a missing one', async () => {
    const started = (await http.post('/api/v1/auth/simulator/start').set('x-api-key', testKey).send({ endUserIp: '192.0.2.10' }).expect(200)).body;
    await http.post('/api/v1/simulator/scan').send({ autoStartToken: started.autoStartToken, action: 'approve' }).expect(200);
    const missing = await http.post(`/api/v1/auth/00000000-0000-4000-8000-000000000000/poll`).set('x-api-key', liveKey).expect(404);

    for (const call of routes(started.sessionId, liveKey)) {
      const answer = await call;
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ ...missing.body, instance: expect.any(String) });
    }
    const own = await http.post(`/api/v1/auth/${started.sessionId}/poll`).set('x-api-key', testKey).expect(200);
    expect(own.body).toMatchObject({ environment: 'test', provider: 'simulator' });
  });
});
