import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { ApiKeysService } from '../../../src/api-keys/api-keys.service.js';
import { SessionSettlement } from '../../../src/sessions/settlement/session-settlement.js';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { useE2eApp } from '../../support/e2e.js';
import { expectProblem, expectValidationProblem } from '../../support/problem.js';
import { verifyResultToken } from '../../support/result-token.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { createEndpoint, waitUntil } from '../../support/webhooks.js';

const CARD = {
  transactionType: 'card',
  recipient: { name: 'Exempelbutiken <AB>' },
  money: { amount: '1000,00', currency: 'SEK' },
  riskWarning: 'Ny mottagare',
};

// docs/api.md, "Payment" and "Risk": the simulator plays BankID's payment order end to end.
describe('Payment sessions on the simulator', () => {
  const e2e = useE2eApp({
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    withKey: true,
    freezeClock: true,
  });
  let receiver: WebhookReceiver;
  let secret: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    ({ secret } = await createEndpoint(e2e.app, e2e.team.id, { url: receiver.url() }));
  });
  afterAll(() => receiver.close());

  const start = (body: object, key = e2e.key) => e2e.http.post('/api/v1/payment/simulator/start').set('x-api-key', key).send(body);
  const scan = (body: object) => e2e.http.post('/api/v1/simulator/scan').send(body).expect(200);
  const settle = async () => {
    e2e.clock.advance(2_500);
    await e2e.app.get(SessionSettlement).collectDue();
  };
  const webhookOf = async (sessionId: string) => {
    const received = await waitUntil(async () => receiver.requests.find((r) => r.body.includes(sessionId)), 'the webhook');
    return new Webhook(secret).verify(received.body, received.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
  };

  it('should start a payment, show the transaction on scan, sign it, and send payment.session.completed', async () => {
    const started = (await start({ endUserIp: '192.0.2.20', userVisibleTransaction: CARD, riskFlags: ['newRecipient'] }).expect(200)).body;
    expect(started).toMatchObject({ provider: 'simulator', operation: 'payment', channel: 'app', autoStartToken: expect.any(String) });

    // The simulated app on the same device shows the transaction, escaped.
    const page = await e2e.http.get(`/simulator/app?autostarttoken=${started.autoStartToken}`).expect(200);
    expect(page.text).toContain('Approve the payment?');
    expect(page.text).toContain('Exempelbutiken &lt;AB&gt;');
    expect(page.text).toContain('1000,00 SEK');
    expect(page.text).not.toContain('<AB>');

    const shown = (await scan({ autoStartToken: started.autoStartToken })).body;
    expect(shown).toEqual({ scanned: true, action: 'approve', operation: 'payment', userVisibleTransaction: CARD });
    await settle();

    const polled = (await e2e.http.post(`/api/v1/auth/${started.sessionId}/poll`).set('x-api-key', e2e.key).expect(200)).body;
    expect(polled).toMatchObject({ status: 'complete', operation: 'payment', user: { personalNumber: '199001011239' } });
    expect(polled.evidence).toMatchObject({ risk: 'low', verification: { status: 'verified' } });
    expect(await verifyResultToken(e2e.http, polled.resultToken, e2e.team.id)).toMatchObject({ operation: 'payment', status: 'complete' });

    const event = await webhookOf(started.sessionId);
    expect(event.type).toBe('payment.session.completed');
    expect(event.data).toMatchObject({ sessionId: started.sessionId, operation: 'payment', status: 'complete', user: expect.any(Object) });
  });

  it('should fail a completion above the key’s maxRisk with riskTooHigh: no user in the poll, the webhook or the result token', async () => {
    const { key } = await e2e.app.get(ApiKeysService).create({ teamId: e2e.team.id, maxRisk: 'low' });
    const started = (await start({ endUserIp: '192.0.2.21', userVisibleTransaction: { ...CARD, riskWarning: undefined } }, key).expect(200))
      .body;
    await scan({ autoStartToken: started.autoStartToken, risk: 'moderate' });
    await settle();

    const polled = (await e2e.http.post(`/api/v1/auth/${started.sessionId}/poll`).set('x-api-key', key).expect(200)).body;
    expect(polled).toMatchObject({ status: 'failed', hintCode: 'riskTooHigh', operation: 'payment' });
    expect(polled).not.toHaveProperty('user');
    expect(polled).not.toHaveProperty('evidence');
    const claims = await verifyResultToken(e2e.http, polled.resultToken, e2e.team.id);
    expect(claims).toMatchObject({ status: 'failed', hintCode: 'riskTooHigh' });
    expect(claims).not.toHaveProperty('user');
    const event = await webhookOf(started.sessionId);
    expect(event.type).toBe('payment.session.failed');
    expect(event.data).toMatchObject({ hintCode: 'riskTooHigh' });
    expect(event.data).not.toHaveProperty('user');
  });

  it.each([
    ['money missing for card', { ...CARD, money: undefined }, '/userVisibleTransaction/money'],
    ['money given for npa', { ...CARD, transactionType: 'npa' }, '/userVisibleTransaction/money'],
    ['an amount with a point', { ...CARD, money: { amount: '1000.00', currency: 'SEK' } }, '/userVisibleTransaction/money/amount'],
    ['an amount with one decimal', { ...CARD, money: { amount: '10,5', currency: 'SEK' } }, '/userVisibleTransaction/money/amount'],
    ['a currency not in ISO 4217', { ...CARD, money: { amount: '10,50', currency: 'XYZ' } }, '/userVisibleTransaction/money/currency'],
    ['an unknown transaction type', { ...CARD, transactionType: 'cash' }, '/userVisibleTransaction/transactionType'],
    ['no recipient', { ...CARD, recipient: undefined }, '/userVisibleTransaction/recipient'],
  ])('should refuse %s with 400 naming the field', async (_case, transaction, pointer) => {
    expect(expectValidationProblem(await start({ endUserIp: '192.0.2.22', userVisibleTransaction: transaction }))).toContain(pointer);
  });

  it('should refuse an unknown risk flag, a missing transaction, and web with app; and take npa without money', async () => {
    expect(
      expectValidationProblem(await start({ endUserIp: '192.0.2.23', userVisibleTransaction: CARD, riskFlags: ['newCard', 'shady'] })),
    ).toContain('/riskFlags');
    expect(expectValidationProblem(await start({ endUserIp: '192.0.2.23' }))).toContain('/userVisibleTransaction');
    const both = await start({ endUserIp: '192.0.2.23', userVisibleTransaction: CARD, web: { userAgent: 'x' }, app: { deviceOS: 'y' } });
    expect(expectValidationProblem(both)).toContain('/app');
    await start({ endUserIp: '192.0.2.23', userVisibleTransaction: { transactionType: 'npa', recipient: { name: 'Mottagare' } } }).expect(
      200,
    );
  });

  it('should answer 404 unknown_provider for a provider that does not exist', async () => {
    expectProblem(
      await e2e.http
        .post('/api/v1/payment/nosuch/start')
        .set('x-api-key', e2e.key)
        .send({ endUserIp: '192.0.2.24', userVisibleTransaction: CARD }),
      404,
      'unknown_provider',
    );
  });

  it('should set maxRisk on a key through the management API and list it', async () => {
    const user = await e2e.app.get(UsersService).create({ teamId: e2e.team.id, email: `member-${randomUUID()}@example.com` });
    const { token } = await e2e.app.get(TokensService).issue({ userId: user.id, teamId: e2e.team.id, clientId: 'test' });
    const authorization = `Bearer ${token}`;
    const created = await e2e.http.post('/api/v1/api-keys').set('authorization', authorization).send({ maxRisk: 'moderate' }).expect(201);
    expect(created.body).toMatchObject({ maxRisk: 'moderate' });
    expectValidationProblem(await e2e.http.post('/api/v1/api-keys').set('authorization', authorization).send({ maxRisk: 'high' }));
  });
});
