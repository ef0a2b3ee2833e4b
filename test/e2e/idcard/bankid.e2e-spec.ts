import { DataSource } from 'typeorm';
import { FAKE_USER } from '../../fakes/bankid-rp-fake.js';
import { useE2eApp } from '../../support/e2e.js';
import { useBankIdFake } from '../../support/fake-rp-apis.js';
import { expectProblem, expectValidationProblem } from '../../support/problem.js';
import { VERIFIED_EVIDENCE, verifyResultToken } from '../../support/result-token.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { createEndpoint, waitUntil } from '../../support/webhooks.js';

describe('BankID digital ID card: POST /api/v1/idcard/bankid/verify against the fake ID card API over mutual TLS', () => {
  const bankId = useBankIdFake({ now: () => e2e.clock.now() });
  const e2e = useE2eApp({
    env: () => ({
      PROVIDERS: 'bankid',
      ...bankId.env(),
      BANKID_TEST_EVIDENCE_ROOTS: bankId.fake.evidenceRootPem,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    }),
    withKey: true,
    freezeClock: true,
  });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(() => receiver.close());

  const verify = (body: object) => e2e.http.post('/api/v1/idcard/bankid/verify').set('x-api-key', e2e.key).send(body);

  it('should answer a finished session with the holder, the verification, both signatures verified, a result token and the webhook', async () => {
    await createEndpoint(e2e.app, e2e.team.id, { url: receiver.url('/idcard'), eventTypes: ['idcard.session.completed'] });
    const qrCode = bankId.fake.showIdCard();

    const answer = (await verify({ qrCode }).expect(200)).body;

    expect(answer).toMatchObject({
      provider: 'bankid',
      environment: 'test',
      operation: 'idcard',
      channel: 'counter',
      status: 'complete',
      user: { ...FAKE_USER, age: expect.any(Number) },
      verification: { verificationId: expect.any(String), verifiedAt: e2e.clock.now().toISOString() },
      authentication: { identifiedAt: expect.any(String), orderRef: expect.any(String) },
      evidence: { verification: VERIFIED_EVIDENCE },
    });
    // The one mutual-TLS call, with the whole code and nothing else.
    expect(bankId.fake.requestsTo('verify')).toEqual([expect.objectContaining({ body: { qrCode }, clientCn: 'Fake RP' })]);
    const claims = await verifyResultToken(e2e.http, answer.resultToken, e2e.team.id);
    expect(claims).toMatchObject({
      operation: 'idcard',
      channel: 'counter',
      verification: answer.verification,
      evidenceSha256: expect.any(String),
    });
    const [delivered] = await waitUntil(async () => (receiver.requests.length ? receiver.requests : null), 'the webhook');
    expect(JSON.parse(delivered.body)).toMatchObject({ type: 'idcard.session.completed', data: { sessionId: answer.sessionId } });
    // Stored like any session: polled by its key, its evidence behind the evidence route.
    const polled = (await e2e.http.post(`/api/v1/auth/${answer.sessionId}/poll`).set('x-api-key', e2e.key).expect(200)).body;
    expect(polled).toMatchObject({ status: 'complete', user: answer.user, verification: answer.verification });
    const evidence = (await e2e.http.get(`/api/v1/auth/${answer.sessionId}/evidence`).set('x-api-key', e2e.key).expect(200)).body;
    expect(evidence).toMatchObject({ verificationSignature: expect.any(String), authenticationSignature: expect.any(String) });
  });

  it('should answer 409 qr_expired to a code verified once already', async () => {
    const qrCode = bankId.fake.showIdCard();
    await verify({ qrCode }).expect(200);

    expectProblem(await verify({ qrCode }), 409, 'qr_expired');
  });

  it('should answer 409 qr_expired to a code past its lifetime, and keep no session of it', async () => {
    const qrCode = bankId.fake.showIdCard();
    e2e.clock.advance(31_000);
    const before = await countIdCardSessions();

    expectProblem(await verify({ qrCode }), 409, 'qr_expired');
    expect(await countIdCardSessions()).toBe(before);
  });

  it('should report a forged verification signature as failed evidence', async () => {
    const qrCode = bankId.fake.showIdCard(FAKE_USER, { forged: true });

    const answer = (await verify({ qrCode }).expect(200)).body;

    expect(answer.evidence.verification).toMatchObject({ status: 'failed', signatureValid: false });
  });

  it('should refuse a body that is not a BankID ID card code before calling BankID', async () => {
    const calls = bankId.fake.requestsTo('verify').length;

    expect(expectValidationProblem(await verify({ qrCode: 'bankid.not-a-card' }))).toEqual(['/qrCode']);
    await verify({ qrCode: `BANKIDF.${'a'.repeat(2100)}` }).expect(413);

    expect(bankId.fake.requestsTo('verify')).toHaveLength(calls);
  });

  const countIdCardSessions = async () =>
    Number((await e2e.app.get(DataSource).query(`SELECT count(*) AS n FROM sessions WHERE operation = 'idcard'`))[0].n);
});
