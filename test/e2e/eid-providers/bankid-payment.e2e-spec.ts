import { ApiKeysService } from '../../../src/api-keys/api-keys.service.js';
import { FAKE_USER } from '../../fakes/bankid-rp-fake.js';
import { useE2eApp } from '../../support/e2e.js';
import { useBankIdFake } from '../../support/fake-rp-apis.js';
import { verifyResultToken } from '../../support/result-token.js';

const COLLECT_MS = 2_000;
const TRANSACTION = {
  transactionType: 'card',
  recipient: { name: 'Exempelbutiken AB' },
  money: { amount: '1499,50', currency: 'SEK' },
  riskWarning: 'Kontrollera mottagaren.',
};

// docs/bankid.md, "Payment", "Risk", "Device data": /rp/v6.0/payment over mutual TLS, returnRisk, maxRisk.
describe('BankID payment, risk and device data against the fake RP API v6.0', () => {
  const bankId = useBankIdFake({ now: () => e2e.clock.now() });
  const e2e = useE2eApp({
    env: () => ({ PROVIDERS: 'bankid', ...bankId.env() }),
    stopBackgroundJobs: true,
    withKey: true,
    freezeClock: true,
  });

  const post = (key: string, path: string, body: object) => e2e.http.post(path).set('x-api-key', key).send(body);
  const poll = async (key: string, id: string) => {
    e2e.clock.advance(COLLECT_MS);
    await e2e.collect();
    return (await e2e.http.post(`/api/v1/auth/${id}/poll`).set('x-api-key', key).expect(200)).body;
  };
  const scanAndApprove = async (key: string, sessionId: string) => {
    const qr = (await e2e.http.get(`/api/v1/auth/${sessionId}/qr`).set('x-api-key', key).expect(200)).body;
    const orderRef = bankId.fake.scanQr(qr.qrData);
    const shown = bankId.fake.shown(orderRef);
    bankId.fake.approve(orderRef);
    return shown;
  };

  it('should start /payment with the transaction, the risk flags and the device data unchanged, and complete with the risk as evidence', async () => {
    const web = { referringDomain: 'shop.example', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', deviceIdentifier: 'f1e2d3c4' };
    const started = (
      await post(e2e.key, '/api/v1/payment/bankid/start', {
        endUserIp: '192.0.2.10',
        userVisibleTransaction: TRANSACTION,
        riskFlags: ['newCustomer', 'largeAmount'],
        web,
      }).expect(200)
    ).body;
    expect(started).toMatchObject({ provider: 'bankid', operation: 'payment', channel: 'app', qrStartToken: expect.any(String) });
    expect(bankId.fake.requestsTo('payment').at(-1)).toMatchObject({
      clientCn: 'Fake RP',
      body: {
        endUserIp: '192.0.2.10',
        userVisibleTransaction: TRANSACTION,
        riskFlags: ['newCustomer', 'largeAmount'],
        web,
        returnRisk: true,
      },
    });
    expect(await scanAndApprove(e2e.key, started.sessionId)).toEqual({ operation: 'payment', userVisibleTransaction: TRANSACTION });
    const done = await poll(e2e.key, started.sessionId);
    expect(done).toMatchObject({ status: 'complete', operation: 'payment', user: FAKE_USER, evidence: { risk: 'low' } });
  });

  it('should ask for the risk on auth and sign too, and pass app device data', async () => {
    const app = { appIdentifier: 'com.example.shop', deviceOS: 'IOS 17.1', deviceModelName: 'iPhone15,2', deviceIdentifier: 'a1b2' };
    await post(e2e.key, '/api/v1/auth/bankid/start', { endUserIp: '192.0.2.11', app }).expect(200);
    await post(e2e.key, '/api/v1/sign/bankid/start', { endUserIp: '192.0.2.12', userVisibleData: 'Avtal', app }).expect(200);
    expect(bankId.fake.requestsTo('auth').at(-1)?.body).toMatchObject({ returnRisk: true, app });
    expect(bankId.fake.requestsTo('sign').at(-1)?.body).toMatchObject({ returnRisk: true, app });
  });

  it('should cut a 300-character user agent to 256 characters before BankID sees it', async () => {
    const userAgent = `Mozilla/5.0 ${'x'.repeat(288)}`;
    expect(userAgent).toHaveLength(300);
    await post(e2e.key, '/api/v1/auth/bankid/start', { endUserIp: '192.0.2.13', web: { userAgent } }).expect(200);
    const sent = bankId.fake.requestsTo('auth').at(-1)?.body as { web: { userAgent: string } };
    expect(sent.web.userAgent).toBe(userAgent.slice(0, 256));
  });

  it('should fail a completion judged riskier than the key accepts with riskTooHigh, and show no user anywhere', async () => {
    const { key } = await e2e.app.get(ApiKeysService).create({ teamId: e2e.team.id, maxRisk: 'moderate' });
    const started = (
      await post(key, '/api/v1/payment/bankid/start', { endUserIp: '192.0.2.14', userVisibleTransaction: TRANSACTION }).expect(200)
    ).body;
    bankId.fake.sendQuirks({ completionData: { risk: 'high' } });
    try {
      await scanAndApprove(key, started.sessionId);
      const failed = await poll(key, started.sessionId);
      expect(failed).toMatchObject({ status: 'failed', hintCode: 'riskTooHigh', operation: 'payment' });
      expect(failed).not.toHaveProperty('user');
      expect(failed).not.toHaveProperty('evidence');
      const claims = await verifyResultToken(e2e.http, failed.resultToken, e2e.team.id);
      expect(claims).toMatchObject({ status: 'failed', hintCode: 'riskTooHigh', operation: 'payment' });
      expect(claims).not.toHaveProperty('user');
    } finally {
      bankId.fake.sendQuirks({});
    }
  });

  it('should let a moderate completion through a key whose maxRisk is moderate', async () => {
    const { key } = await e2e.app.get(ApiKeysService).create({ teamId: e2e.team.id, maxRisk: 'moderate' });
    const started = (await post(key, '/api/v1/auth/bankid/start', { endUserIp: '192.0.2.15' }).expect(200)).body;
    bankId.fake.sendQuirks({ completionData: { risk: 'moderate' } });
    try {
      await scanAndApprove(key, started.sessionId);
      expect(await poll(key, started.sessionId)).toMatchObject({ status: 'complete', user: FAKE_USER, evidence: { risk: 'moderate' } });
    } finally {
      bankId.fake.sendQuirks({});
    }
  });
});
