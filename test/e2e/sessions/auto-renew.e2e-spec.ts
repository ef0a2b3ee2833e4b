import { DataSource } from 'typeorm';
import { SessionSettlement } from '../../../src/sessions/settlement/session-settlement.js';
import { useE2eApp } from '../../support/e2e.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { createEndpoint } from '../../support/webhooks.js';

// The simulator fails an order nobody picked up after SIMULATOR_START_TIMEOUT, as BankID does after about 30 s.
const START_TIMEOUT_MS = 30_000;
const SESSION_TTL_MS = 180_000;

describe('autoRenew: an order nobody picked up is replaced under the same session', () => {
  const e2e = useE2eApp({
    stopBackgroundJobs: true,
    withKey: true,
    freezeClock: true,
    env: { SESSION_TTL: '3m', SIMULATOR_START_TIMEOUT: '30s', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  });
  let receiver: WebhookReceiver;

  const start = (body: object) =>
    e2e.http
      .post('/api/v1/auth/simulator/start')
      .set('x-api-key', e2e.key)
      .send({ endUserIp: '192.0.2.10', ...body });
  const poll = (id: string) => e2e.http.post(`/api/v1/auth/${id}/poll`).set('x-api-key', e2e.key);
  const qr = (id: string) => e2e.http.get(`/api/v1/auth/${id}/qr`).set('x-api-key', e2e.key);
  const collect = () => e2e.app.get(SessionSettlement).collectDue();
  const deliveries = (sessionId: string) =>
    e2e.app.get(DataSource).query<{ event_type: string }[]>('SELECT event_type FROM webhook_deliveries WHERE session_id = $1', [sessionId]);

  // The messages are counted where they are written (the outbox): whether they are sent is webhooks/delivery.e2e-spec.ts's matter.
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    await createEndpoint(e2e.app, e2e.team.id, { url: receiver.url() });
  });
  afterAll(() => receiver?.close());

  it('should renew on startFailed with fresh frames, stay pending, send no webhook, and complete on the new order', async () => {
    const started = (await start({ autoRenew: true }).expect(200)).body;
    const first = (await qr(started.sessionId).expect(200)).body.qrData as string;
    expect(first).toContain(started.qrStartToken);

    e2e.clock.advance(START_TIMEOUT_MS + 1_000);
    await collect();
    const pending = (await poll(started.sessionId).expect(200)).body;
    expect(pending).toMatchObject({ status: 'pending', hintCode: 'outstandingTransaction', userMessage: { code: 'RFA1' } });

    // The QR route carries on from the new order: another start token, its clock from zero.
    const renewed = (await qr(started.sessionId).expect(200)).body;
    expect(renewed.qrTime).toBe(0);
    expect(renewed.qrData).not.toContain(started.qrStartToken);
    expect(await deliveries(started.sessionId)).toEqual([]);

    // The old frame no longer opens anything; the new one does.
    await e2e.http.post('/api/v1/simulator/scan').send({ qrData: first }).expect(400);
    await e2e.http.post('/api/v1/simulator/scan').send({ qrData: renewed.qrData }).expect(200);
    e2e.clock.advance(4_000);
    await collect();
    expect((await poll(started.sessionId).expect(200)).body.status).toBe('complete');
    expect(await deliveries(started.sessionId)).toEqual([{ event_type: 'auth.session.completed' }]);
  });

  it('should renew until SESSION_TTL since the session began, then fail once, with one webhook', async () => {
    const started = (await start({ autoRenew: true }).expect(200)).body;
    const tokens = new Set<string>();
    for (let elapsed = 0; elapsed < SESSION_TTL_MS - START_TIMEOUT_MS; elapsed += START_TIMEOUT_MS + 1_000) {
      e2e.clock.advance(START_TIMEOUT_MS + 1_000);
      await collect();
      const frame = (await qr(started.sessionId).expect(200)).body.qrData as string;
      tokens.add(frame.split('.')[1]);
    }
    expect(tokens.size).toBeGreaterThanOrEqual(4);
    e2e.clock.advance(SESSION_TTL_MS);
    await collect();
    const ended = (await poll(started.sessionId).expect(200)).body;
    expect(ended).toMatchObject({ status: 'failed', userMessage: { code: expect.stringMatching(/^RFA(8|17B)$/) } });
    expect(await deliveries(started.sessionId)).toEqual([{ event_type: 'auth.session.failed' }]);
  });

  it('should fail startFailed at once without autoRenew, as before', async () => {
    const started = (await start({}).expect(200)).body;
    e2e.clock.advance(START_TIMEOUT_MS + 1_000);
    await collect();
    expect((await poll(started.sessionId).expect(200)).body).toMatchObject({
      status: 'failed',
      hintCode: 'startFailed',
      userMessage: { code: 'RFA17B' },
    });
  });
});
