import { ApiKeysService } from '../../../src/api-keys/api-keys.service.js';
import { useE2eApp } from '../../support/e2e.js';
import { useBankIdFake } from '../../support/fake-rp-apis.js';
import { expectProblem } from '../../support/problem.js';

const COLLECT_MS = 2_000;

/** docs/security.md: a team's test and live worlds never see each other's sessions. */
describe('Sessions kept apart by environment', () => {
  let liveKey: string;

  const bankId = useBankIdFake({ now: () => e2e.clock.now() });

  // The live side of the BankID provider, pointed at the fake: a live session without real BankID.
  const e2e = useE2eApp({
    env: () => ({
      PROVIDERS: 'simulator,bankid',
      ...bankId.env('live'),
      // The fake signs each completion with openssl: room for it on a loaded machine.
      BANKID_TIMEOUT: '5s',
      BANKID_RETRY_SCHEDULE: '10ms,20ms',
    }),
    stopBackgroundJobs: true,
    withKey: { environment: 'test' },
    freezeClock: true,
  });

  beforeAll(async () => {
    ({ key: liveKey } = await e2e.app
      .get(ApiKeysService)
      .create({ teamId: e2e.team.id, environment: 'live', scopes: ['sessions:read', 'sessions:write'] }));
  });

  const routes = (id: string, key: string) => [
    e2e.http.post(`/api/v1/auth/${id}/poll`).set('x-api-key', key),
    e2e.http.get(`/api/v1/auth/${id}/qr`).set('x-api-key', key),
    e2e.http.post(`/api/v1/auth/${id}/cancel`).set('x-api-key', key),
    e2e.http.get(`/api/v1/auth/${id}/evidence`).set('x-api-key', key),
  ];

  it('should hide a live session from a test key of the same team on every session route', async () => {
    const started = (
      await e2e.http.post('/api/v1/auth/bankid/start').set('x-api-key', liveKey).send({ endUserIp: '192.0.2.10' }).expect(200)
    ).body;
    bankId.fake.approve(bankId.fake.openWithAutoStartToken(started.autoStartToken));
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    const live = await e2e.http.post(`/api/v1/auth/${started.sessionId}/poll`).set('x-api-key', liveKey).expect(200);
    expect(live.body).toMatchObject({ environment: 'live', status: 'complete', user: expect.any(Object), resultToken: expect.any(String) });
    // Live evidence is checked against the live roots only: BANKID_CA (the TLS CA) does not issue the
    // fake's user certificates, so the chain is not trusted (docs/evidence.md, "Trust roots").
    expect(live.body.evidence.verification).toMatchObject({ status: 'failed', signatureValid: true, certificateTrusted: false });

    for (const call of routes(started.sessionId, e2e.key)) {
      const answer = await call;
      expectProblem(answer, 404, 'session_not_found');
      expect(JSON.stringify(answer.body)).not.toContain(live.body.user.personalNumber);
    }
  });

  it('should hide a simulated test session from a live key of the same team, as a missing one', async () => {
    const started = (
      await e2e.http.post('/api/v1/auth/simulator/start').set('x-api-key', e2e.key).send({ endUserIp: '192.0.2.10' }).expect(200)
    ).body;
    await e2e.http.post('/api/v1/simulator/scan').send({ autoStartToken: started.autoStartToken, action: 'approve' }).expect(200);
    const missing = await e2e.http.post(`/api/v1/auth/00000000-0000-4000-8000-000000000000/poll`).set('x-api-key', liveKey).expect(404);

    for (const call of routes(started.sessionId, liveKey)) {
      const answer = await call;
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ ...missing.body, instance: expect.any(String) });
    }
    const own = await e2e.http.post(`/api/v1/auth/${started.sessionId}/poll`).set('x-api-key', e2e.key).expect(200);
    expect(own.body).toMatchObject({ environment: 'test', provider: 'simulator' });
  });
});
