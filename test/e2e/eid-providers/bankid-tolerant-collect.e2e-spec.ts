import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { FAKE_USER } from '../../fakes/bankid-rp-fake.js';
import { useE2eApp } from '../../support/e2e.js';
import { useBankIdFake } from '../../support/fake-rp-apis.js';

const COLLECT_MS = 2_000;

// docs/bankid.md, "Tolerant collect": a BankID-compatible server that sends optional fields in an
// undocumented shape must not keep a person who approved from being reported.
describe('BankID collect answers the documentation does not promise', () => {
  const bankId = useBankIdFake({ now: () => e2e.clock.now() });
  const e2e = useE2eApp({
    env: () => ({
      PROVIDERS: 'bankid',
      ...bankId.env(),
      // The root of the fake's user certificates: its evidence verifies, so no warning of ours mixes in (docs/evidence.md).
      BANKID_TEST_EVIDENCE_ROOTS: bankId.fake.evidenceRootPem,
    }),
    stopBackgroundJobs: true,
    withKey: true,
    freezeClock: true,
  });
  afterEach(() => {
    bankId.fake.sendQuirks({});
    jest.restoreAllMocks();
  });

  const poll = (id: string) => e2e.http.post(`/api/v1/auth/${id}/poll`).set('x-api-key', e2e.key).expect(200);
  const approvedSession = async () => {
    const started = (
      await e2e.http.post('/api/v1/auth/bankid/start').set('x-api-key', e2e.key).send({ endUserIp: '192.0.2.10' }).expect(200)
    ).body;
    bankId.fake.approve(bankId.fake.openWithAutoStartToken(started.autoStartToken));
    return started.sessionId as string;
  };
  /** Every line the service logged at warn or error, as the text a log reader would search. */
  const logged = () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const error = jest.spyOn(Logger.prototype, 'error');
    return () => JSON.stringify([...warn.mock.calls, ...error.mock.calls]);
  };

  it('should complete a session whose completionData has stepUp: false, unknown fields and odd optional ones', async () => {
    const lines = logged();
    bankId.fake.sendQuirks({
      collect: { somethingNew: { nested: [1, 2] } },
      completionData: { stepUp: false, risk: { level: 'low' }, futureField: 'x', device: { ipAddress: '192.0.2.10', uhi: 42 } },
    });
    const sessionId = await approvedSession();
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    const done = (await poll(sessionId)).body;
    expect(done).toMatchObject({ status: 'complete', user: FAKE_USER, device: { ipAddress: '192.0.2.10' } });
    // The dropped fields are named for the operator; the certificate is not blamed.
    expect(lines()).toContain('completionData.risk (a object)');
    expect(lines()).toContain('completionData.device.uhi (a number)');
    expect(lines()).not.toMatch(/certificate/i);
  });

  it('should fail the session with providerError after 3 complete answers without a usable user, naming the field', async () => {
    const lines = logged();
    bankId.fake.sendQuirks({ completionData: { user: { ...FAKE_USER, name: null } } });
    const sessionId = await approvedSession();
    for (let i = 0; i < 2; i++) {
      e2e.clock.advance(COLLECT_MS);
      await e2e.collect();
      expect((await poll(sessionId)).body).toMatchObject({ status: 'pending' });
    }
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    expect((await poll(sessionId)).body).toMatchObject({ status: 'failed', hintCode: 'providerError' });
    expect(bankId.fake.requestsTo('collect').filter((r) => (r.body as { orderRef: string }).orderRef)).not.toHaveLength(0);
    expect(lines()).toContain('completionData.user.name is null');
    expect(lines()).not.toMatch(/certificate/i);
    expect(lines()).not.toContain(FAKE_USER.personalNumber);
  });

  it('should fail with providerError when completionData is missing altogether', async () => {
    bankId.fake.sendQuirks({ completionData: { user: undefined } });
    const sessionId = await approvedSession();
    for (let i = 0; i < 3; i++) {
      e2e.clock.advance(COLLECT_MS);
      await e2e.collect();
      await poll(sessionId);
    }
    expect((await poll(sessionId)).body).toMatchObject({ status: 'failed', hintCode: 'providerError' });
  });
});
