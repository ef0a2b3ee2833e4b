import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { SessionSettlement } from '../../../src/sessions/settlement/session-settlement.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { createEndpoint, deliveriesOf } from '../../support/webhooks.js';
import { useE2eApp } from '../../support/e2e.js';

const BOOT_TIMEOUT = 120_000;

describe('Webhooks: progress events (auth.session.updated, sign.session.updated)', () => {
  // The test runs each collect itself: a background tick between a clock move and the scan would
  // collect the order before the app has it. New messages wake the dispatcher without its tick.
  const e2e = useE2eApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, bootTimeout: BOOT_TIMEOUT, stopBackgroundJobs: true });
  let receiver: WebhookReceiver;

  const app = () => e2e.app;
  const collect = () => app().get(SessionSettlement).collectDue();

  beforeEach(async () => {
    e2e.clock.freeze();
    receiver = await WebhookReceiver.start();
  });
  afterEach(() => receiver.close());

  it('should send each hintCode change to an endpoint that lists the type, then the final event; a default endpoint gets only the final one', async () => {
    const team = await createTeamWithKey(app(), { plan: 'pro' });
    const progress = await createEndpoint(app(), team.team.id, {
      url: receiver.url('/progress'),
      eventTypes: ['auth.session.updated', 'auth.session.completed'],
    });
    const defaults = await createEndpoint(app(), team.team.id, { url: receiver.url('/default') });
    expect(progress.endpoint.eventTypes).toEqual(['auth.session.completed', 'auth.session.updated']);
    expect(defaults.endpoint.eventTypes).toEqual([
      'auth.session.completed',
      'auth.session.failed',
      'sign.session.completed',
      'sign.session.failed',
      'payment.session.completed',
      'payment.session.failed',
      'idcard.session.completed',
    ]);

    const http = request(app().getHttpServer());
    const started = await http
      .post('/api/v1/auth/simulator/start')
      .set('x-api-key', team.key)
      .send({ endUserIp: '192.0.2.10', metadata: { orderId: 'A-1' } })
      .expect(200);
    const sessionId = started.body.sessionId as string;

    // Still outstandingTransaction: no change, no event.
    await http.post(`/api/v1/auth/${sessionId}/poll`).set('x-api-key', team.key).expect(200);
    e2e.clock.advance(2_000);
    await http
      .post('/api/v1/simulator/scan')
      .send({ autoStartToken: started.body.autoStartToken, personalNumber: '198507099805' })
      .expect(200);
    await collect(); // started
    // The simulator shows userSign for one second after started; let the collector look within it.
    e2e.clock.advance(1_000);
    await app()
      .get(DataSource)
      .query('UPDATE sessions SET last_collected_at = $2 WHERE id = $1', [sessionId, new Date(e2e.clock.nowMs() - 2_000)]);
    await collect(); // userSign
    e2e.clock.advance(2_000);
    await collect(); // complete

    // Delivery runs on the dispatcher's wall-clock tick; a loaded CI machine can stretch it past the default 10 s.
    const received = await receiver.waitForRequests(4, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 200)); // nothing more comes
    expect(receiver.requests).toHaveLength(4);

    type Event = { type: string; timestamp: string; data: Record<string, unknown> };
    const at = (path: string, secret: string) =>
      received.filter((r) => r.path === path).map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as Event);
    const progressEvents = at('/progress', progress.secret).sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    expect(progressEvents.map((e) => [e.type, e.data.status, e.data.hintCode])).toEqual([
      ['auth.session.updated', 'pending', 'started'],
      ['auth.session.updated', 'pending', 'userSign'],
      ['auth.session.completed', 'complete', undefined],
    ]);
    const [toStarted, toUserSign] = progressEvents;
    expect(toStarted.data).toEqual({
      sessionId,
      provider: 'simulator',
      environment: 'test',
      operation: 'auth',
      channel: 'app',
      status: 'pending',
      hintCode: 'started',
      userMessage: expect.objectContaining({ code: expect.any(String), sv: expect.any(String), en: expect.any(String) }),
      metadata: { orderId: 'A-1' },
    });
    expect(toUserSign.data).not.toHaveProperty('user');
    expect((toUserSign.data.userMessage as { code: string }).code).toBe('RFA9');
    expect(progressEvents[2].data).toMatchObject({ user: { personalNumber: '198507099805' } });

    const defaultEvents = at('/default', defaults.secret);
    expect(defaultEvents.map((e) => e.type)).toEqual(['auth.session.completed']);

    // Several progress messages per session and endpoint, one final message each.
    const log = await deliveriesOf(app(), team.team.id, sessionId);
    expect(log.map((d) => [d.endpointId, d.eventType]).sort()).toEqual(
      [
        [progress.endpoint.id, 'auth.session.updated'],
        [progress.endpoint.id, 'auth.session.updated'],
        [progress.endpoint.id, 'auth.session.completed'],
        [defaults.endpoint.id, 'auth.session.completed'],
      ].sort(),
    );
    // The database keeps the final message at most once per session and endpoint, progress as often as it comes.
    const copy = (eventType: string) =>
      app()
        .get(DataSource)
        .query(
          `INSERT INTO webhook_deliveries (id, message_id, team_id, endpoint_id, session_id, event_type, event_at, status, finished_at, created_at)
           SELECT gen_random_uuid(), 'msg_copy_' || md5(random()::text), team_id, endpoint_id, session_id, $2, event_at, 'delivered', now(), now()
             FROM webhook_deliveries WHERE session_id = $1 AND endpoint_id = $3 LIMIT 1`,
          [sessionId, eventType, progress.endpoint.id],
        );
    await expect(copy('auth.session.updated')).resolves.toBeDefined();
    await expect(copy('auth.session.completed')).rejects.toThrow(/uq_webhook_deliveries_session_endpoint/);
  });

  it("should report a fast approval's short hint when the collector's next tick comes a hair under 2 s after its last claim", async () => {
    const team = await createTeamWithKey(app(), { plan: 'pro' });
    const progress = await createEndpoint(app(), team.team.id, {
      url: receiver.url('/progress'),
      eventTypes: ['auth.session.updated', 'auth.session.completed'],
    });
    const http = request(app().getHttpServer());
    const started = await http
      .post('/api/v1/auth/simulator/start')
      .set('x-api-key', team.key)
      .send({ endUserIp: '192.0.2.10' })
      .expect(200);
    // The start wrote the session's last collect; the person approves at once, and started and userSign
    // last one second each: only the collector's next tick can see them.
    e2e.clock.advance(300);
    await http
      .post('/api/v1/simulator/scan')
      .send({ autoStartToken: started.body.autoStartToken, personalNumber: '198507099805' })
      .expect(200);
    // setInterval(2 s) runs a hair early against the time the last claim wrote (docs/architecture.md, "Sessions").
    e2e.clock.advance(1_690);
    await collect(); // userSign
    e2e.clock.advance(2_000);
    await collect(); // complete

    // Written with the transitions they report (the outbox), so the log holds them once the collects return.
    const log = await deliveriesOf(app(), team.team.id, started.body.sessionId);
    expect(log.map((d) => [d.endpointId, d.eventType]).sort()).toEqual([
      [progress.endpoint.id, 'auth.session.completed'],
      [progress.endpoint.id, 'auth.session.updated'],
    ]);
  });
});
