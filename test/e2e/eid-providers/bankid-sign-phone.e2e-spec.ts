import { DataSource } from 'typeorm';
import { DataCipher } from '../../../src/common/crypto/data-cipher.js';
import { FAKE_USER } from '../../fakes/bankid-rp-fake.js';
import { useE2eApp } from '../../support/e2e.js';
import { useBankIdFake } from '../../support/fake-rp-apis.js';
import { expectProblem, expectValidationProblem } from '../../support/problem.js';

const COLLECT_MS = 2_000;
const PERSON = '198112189876';
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

// docs/bankid.md, "Signing and the phone channel": sign, phone/auth and phone/sign over mutual TLS.
describe('BankID signing and the phone channel against the fake RP API v6.0', () => {
  const bankId = useBankIdFake({ now: () => e2e.clock.now() });
  const e2e = useE2eApp({
    env: () => ({
      PROVIDERS: 'bankid',
      ...bankId.env(),
    }),
    stopBackgroundJobs: true,
    withKey: true,
    freezeClock: true,
  });

  const post = (path: string, body: object) => e2e.http.post(path).set('x-api-key', e2e.key).send(body);
  const poll = async (id: string) => (await e2e.http.post(`/api/v1/auth/${id}/poll`).set('x-api-key', e2e.key).expect(200)).body;
  const orderRefOf = async (sessionId: string): Promise<string> =>
    (await e2e.app.get(DataSource).query('SELECT order_ref FROM sessions WHERE id = $1', [sessionId]))[0].order_ref;
  const step = async (sessionId: string) => {
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    return poll(sessionId);
  };

  it('should sign on the app channel through /sign: the text, the hidden data, the QR, and a Signing signature kept as evidence', async () => {
    const text = '# Avtal\n\nJag godkänner **villkoren**.';
    const started = (
      await post('/api/v1/sign/bankid/start', {
        endUserIp: '192.0.2.10',
        userVisibleData: text,
        userVisibleDataFormat: 'simpleMarkdownV1',
        userNonVisibleData: 'aGFzaA==',
      }).expect(200)
    ).body;
    expect(started).toMatchObject({
      provider: 'bankid',
      operation: 'sign',
      channel: 'app',
      qrStartToken: expect.any(String),
      autoStartToken: expect.any(String),
    });
    expect(bankId.fake.requestsTo('sign').at(-1)).toMatchObject({
      clientCn: 'Fake RP',
      contentType: 'application/json',
      body: {
        endUserIp: '192.0.2.10',
        userVisibleData: base64(text),
        userVisibleDataFormat: 'simpleMarkdownV1',
        userNonVisibleData: 'aGFzaA==',
        returnRisk: true,
      },
    });
    const qr = (await e2e.http.get(`/api/v1/auth/${started.sessionId}/qr`).set('x-api-key', e2e.key).expect(200)).body;
    const orderRef = bankId.fake.scanQr(qr.qrData);
    expect(bankId.fake.shown(orderRef)).toEqual({ operation: 'sign', userVisibleData: text });
    expect(await step(started.sessionId)).toMatchObject({ status: 'pending', hintCode: 'userSign', operation: 'sign' });
    bankId.fake.approve(orderRef);
    expect(await step(started.sessionId)).toMatchObject({ status: 'complete', operation: 'sign', channel: 'app', user: FAKE_USER });

    // The evidence is kept apart from the identity, encrypted (docs/evidence.md).
    const [row] = await e2e.app.get(DataSource).query('SELECT evidence_enc FROM sessions WHERE id = $1', [started.sessionId]);
    const evidence = e2e.app.get(DataCipher).decryptJson<{ signature: string }>(row.evidence_enc, `sessions:${started.sessionId}:evidence`);
    const signed = Buffer.from(evidence.signature, 'base64').toString('utf8');
    expect(signed).toContain('<funcId>Signing</funcId>');
    expect(signed).toContain(`>${base64(text)}</usrVisibleData>`);
    expect(signed).toContain('<usrNonVisibleData>aGFzaA==</usrNonVisibleData>');
  });

  it.each([
    ['auth', 'phone/auth', {}],
    ['sign', 'phone/sign', { userVisibleData: 'Jag bekräftar flytten.' }],
  ] as const)(
    'should run phone %s through /%s: no QR, userCallConfirm then userSign, completed by the person called',
    async (operation, path, extra) => {
      const started = (
        await post(`/api/v1/${path}/bankid/start`, {
          personalNumber: PERSON,
          callInitiator: 'RP',
          requirement: { pinCode: true },
          ...extra,
        }).expect(200)
      ).body;
      expect(started).toMatchObject({ provider: 'bankid', operation, channel: 'phone', status: 'pending' });
      for (const absent of ['qrStartToken', 'qrStartSecret', 'autoStartToken', 'kioskUrl']) expect(started).not.toHaveProperty(absent);
      expect(bankId.fake.requestsTo(path).at(-1)?.body).toEqual({
        personalNumber: PERSON,
        callInitiator: 'RP',
        requirement: { pinCode: true },
        ...('userVisibleData' in extra ? { userVisibleData: base64(extra.userVisibleData), userVisibleDataFormat: 'plaintext' } : {}),
      });
      expectProblem(await e2e.http.get(`/api/v1/auth/${started.sessionId}/qr`).set('x-api-key', e2e.key), 409, 'qr_not_available');

      expect(await step(started.sessionId)).toMatchObject({ status: 'pending', hintCode: 'outstandingTransaction' });
      // Unlike a QR order, nobody has to pick it up within 30 s: it is in the person's app already.
      e2e.clock.advance(40_000);
      const orderRef = bankId.fake.openPhoneOrder(PERSON);
      expect(orderRef).toBe(await orderRefOf(started.sessionId));
      expect(await step(started.sessionId)).toMatchObject({ status: 'pending', hintCode: 'userCallConfirm', channel: 'phone' });
      bankId.fake.confirmCall(orderRef);
      expect(await step(started.sessionId)).toMatchObject({ status: 'pending', hintCode: 'userSign' });
      bankId.fake.approve(orderRef);
      expect(await step(started.sessionId)).toMatchObject({
        status: 'complete',
        operation,
        channel: 'phone',
        user: { ...FAKE_USER, personalNumber: PERSON },
      });
    },
  );

  it('should fail userDeclinedCall when the person says they are not on a call', async () => {
    const { sessionId } = (
      await post('/api/v1/phone/sign/bankid/start', { personalNumber: PERSON, callInitiator: 'user', userVisibleData: 'x' }).expect(200)
    ).body;
    const orderRef = bankId.fake.openPhoneOrder(PERSON);
    bankId.fake.declineCall(orderRef);
    expect(await step(sessionId)).toMatchObject({ status: 'failed', hintCode: 'userDeclinedCall', operation: 'sign', channel: 'phone' });
  });

  it('should answer 409 order_in_progress for a second phone order for the same person, whose first order is cancelled', async () => {
    const first = (await post('/api/v1/phone/auth/bankid/start', { personalNumber: PERSON, callInitiator: 'RP' }).expect(200)).body
      .sessionId;
    const res = await post('/api/v1/phone/sign/bankid/start', { personalNumber: PERSON, callInitiator: 'RP', userVisibleData: 'x' });
    expectProblem(res, 409, 'order_in_progress');
    expect(await step(first)).toMatchObject({ status: 'failed', hintCode: 'cancelled' });
  });

  it('should cancel a phone order at BankID', async () => {
    const { sessionId } = (await post('/api/v1/phone/auth/bankid/start', { personalNumber: PERSON, callInitiator: 'RP' }).expect(200)).body;
    const orderRef = await orderRefOf(sessionId);
    const res = await e2e.http.post(`/api/v1/auth/${sessionId}/cancel`).set('x-api-key', e2e.key).expect(200);
    expect(res.body).toMatchObject({ status: 'failed', hintCode: 'cancelled', channel: 'phone' });
    expect(bankId.fake.requestsTo('cancel').at(-1)?.body).toEqual({ orderRef });
  });

  it.each([
    [
      'a sign text over 40,000 base64 characters',
      '/api/v1/sign/bankid/start',
      { endUserIp: '192.0.2.10', userVisibleData: 'ö'.repeat(15_001) },
      '/userVisibleData',
      'sign',
    ],
    [
      'a phone requirement BankID does not take',
      '/api/v1/phone/auth/bankid/start',
      { personalNumber: PERSON, callInitiator: 'RP', requirement: { mrtd: true } },
      '/requirement/mrtd',
      'phone/auth',
    ],
    [
      'a personal number with a wrong check digit',
      '/api/v1/phone/sign/bankid/start',
      { personalNumber: '198112189875', callInitiator: 'RP', userVisibleData: 'x' },
      '/personalNumber',
      'phone/sign',
    ],
    [
      'an unknown callInitiator',
      '/api/v1/phone/sign/bankid/start',
      { personalNumber: PERSON, callInitiator: 'bank', userVisibleData: 'x' },
      '/callInitiator',
      'phone/sign',
    ],
  ] as const)('should refuse %s with 400 naming the field, without calling BankID', async (_name, path, body, pointer, bankIdPath) => {
    const before = bankId.fake.requestsTo(bankIdPath).length;
    expect(expectValidationProblem(await post(path, body))).toContain(pointer);
    expect(bankId.fake.requestsTo(bankIdPath)).toHaveLength(before);
  });

  it('should complete a phone sign whose collect answer carries odd optional fields', async () => {
    bankId.fake.sendQuirks({ collect: { callInitiator: 7 }, completionData: { stepUp: false, extra: { a: 1 } } });
    try {
      const { sessionId } = (
        await post('/api/v1/phone/sign/bankid/start', { personalNumber: PERSON, callInitiator: 'RP', userVisibleData: 'x' }).expect(200)
      ).body;
      const orderRef = bankId.fake.openPhoneOrder(PERSON);
      bankId.fake.confirmCall(orderRef);
      bankId.fake.approve(orderRef);
      expect(await step(sessionId)).toMatchObject({ status: 'complete', operation: 'sign', channel: 'phone' });
    } finally {
      bankId.fake.sendQuirks({});
    }
  });
});
