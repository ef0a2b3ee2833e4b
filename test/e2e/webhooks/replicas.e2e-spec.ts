import { jest } from '@jest/globals';
import { Counter, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { webhooksConfig, type WebhooksConfig } from '../../../src/config/webhooks.config.js';
import { SessionSettlement } from '../../../src/sessions/settlement/session-settlement.js';
import { WebhookDeliveryStore } from '../../../src/webhooks/webhook-delivery.store.js';
import { LEASE_MARGIN_MS, MAX_IN_FLIGHT, WebhookDispatcher } from '../../../src/webhooks/webhook-dispatcher.js';
import { WebhookOutbox } from '../../../src/webhooks/webhook-outbox.js';
import type { TestApp } from '../../support/create-test-app.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { usingRealPostgres } from '../../support/test-postgres.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { createEndpoint, deliveriesOf, waitUntil } from '../../support/webhooks.js';
import { httpOf, useE2eApp } from '../../support/e2e.js';

// More than one replica keeps in flight, so that the other must take part.
const MESSAGES = MAX_IN_FLIGHT + 36;
// Replicas share a PostgreSQL server; the embedded database belongs to one process.
const describeOnPostgres = usingRealPostgres() ? describe : describe.skip;

describeOnPostgres('Webhooks: dispatchers on two replicas sharing one database', () => {
  // Every approval signs and every completion verifies real evidence (docs/evidence.md): a hundred at once
  // on a loaded machine may take longer than the simulator's 30 s for an app to pick an order up.
  const e2e = useE2eApp({
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT: '2s', SIMULATOR_START_TIMEOUT: '3m' },
    replicas: 2,
  });
  jest.setTimeout(120_000);
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterEach(() => receiver.close());

  const attemptsBy = async (replica: TestApp) => {
    const metric = replica.app.get(Registry).getSingleMetric('webhook_attempts_total') as Counter;
    return (await metric.get()).values.reduce((sum, v) => sum + v.value, 0);
  };

  it('should deliver every message once, each by one replica at a time', async () => {
    const [a, b] = e2e.replicas;
    receiver.answerByDefault({ status: 200, delayMs: 30 });
    const team = await createTeamWithKey(a.app, { plan: 'pro' });
    await createEndpoint(a.app, team.team.id, { url: receiver.url() });
    const http = httpOf(a.app);
    await Promise.all(
      Array.from({ length: MESSAGES }, async () => {
        const started = await http
          .post('/api/v1/auth/simulator/start')
          .set('x-api-key', team.key)
          .send({ endUserIp: '192.0.2.1' })
          .expect(200);
        await http.post('/api/v1/simulator/scan').send({ autoStartToken: started.body.autoStartToken }).expect(200);
      }),
    );
    for (const replica of e2e.replicas) replica.clock.advance(2_500);

    // Replica a ends every session (and is woken for each message); b keeps looking for due ones meanwhile.
    let settled = false;
    const bLooks = (async () => {
      while (!settled) {
        b.app.get(WebhookDispatcher).wake();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await a.app.get(SessionSettlement).collectDue();
    const dataSource = a.app.get(DataSource);
    await waitUntil(
      async () =>
        (await dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered'`))[0].n === MESSAGES,
      'every message to be delivered',
      30_000,
    );
    settled = true;
    await bLooks;
    await Promise.all(e2e.replicas.map((r) => r.app.get(WebhookDispatcher).idle()));

    expect(receiver.requests).toHaveLength(MESSAGES);
    expect(new Set(receiver.messageIds()).size).toBe(MESSAGES);
    expect(receiver.concurrentDuplicates).toBe(0);
    expect(await dataSource.query(`SELECT DISTINCT attempt_count FROM webhook_deliveries`)).toEqual([{ attempt_count: 1 }]);
    // Both took part: the work was shared, not merely not duplicated.
    expect(await attemptsBy(a)).toBeGreaterThan(0);
    expect(await attemptsBy(b)).toBeGreaterThan(0);
    expect((await attemptsBy(a)) + (await attemptsBy(b))).toBe(MESSAGES);
  });

  it("should let another replica take over a message once a dead worker's lease has run out", async () => {
    const [a, b] = e2e.replicas;
    const at = Math.ceil(Date.now() / 1000) * 1000;
    for (const replica of e2e.replicas) replica.clock.freeze(at);
    const team = await createTeamWithKey(a.app, { plan: 'pro' });
    await createEndpoint(a.app, team.team.id, { url: receiver.url() });
    const started = await httpOf(a.app)
      .post('/api/v1/auth/simulator/start')
      .set('x-api-key', team.key)
      .send({ endUserIp: '192.0.2.1' })
      .expect(200);
    const sessionId = started.body.sessionId as string;

    // A message due a minute from now, so that no dispatcher takes it before the "dead" worker does.
    const due = new Date(at + 60_000);
    await a.app.get(DataSource).transaction((manager) =>
      a.app.get(WebhookOutbox).enqueue(
        manager,
        [
          {
            teamId: team.team.id,
            environment: 'test',
            sessionId,
            type: 'auth.session.failed',
            occurredAt: new Date(at),
            data: { sessionId },
          },
        ],
        due,
      ),
    );
    const leaseMs = a.app.get<WebhooksConfig>(webhooksConfig.KEY).timeoutMs + LEASE_MARGIN_MS;
    const [dead] = await a.app.get(WebhookDeliveryStore).claimDue(10, due, leaseMs);
    expect(dead).toMatchObject({ attemptCount: 1 });

    const lookAt = async (ms: number) => {
      for (const replica of e2e.replicas) replica.clock.freeze(ms);
      for (const replica of e2e.replicas) replica.app.get(WebhookDispatcher).wake();
      await Promise.all(e2e.replicas.map((r) => r.app.get(WebhookDispatcher).idle()));
    };
    // While the lease holds, nobody else sends it.
    await lookAt(due.getTime() + leaseMs - 1);
    expect(receiver.requests).toHaveLength(0);

    await lookAt(due.getTime() + leaseMs);
    await receiver.waitForRequests(1);
    const [delivered] = await waitUntil(async () => {
      const rows = await deliveriesOf(b.app, team.team.id, sessionId);
      return rows[0]?.status === 'delivered' ? rows : undefined;
    }, 'the takeover');
    expect(delivered).toMatchObject({ attemptCount: 2, attempts: [{ number: 2, outcome: 'success' }] });

    // The dead worker wakes up and reports: its attempt is logged, but the message is no longer its to move.
    const late = await a.app
      .get(WebhookDeliveryStore)
      .record(
        dead,
        { outcome: 'http_error', statusCode: 502, latencyMs: 1, error: 'HTTP 502', responseExcerpt: null },
        a.clock.now(),
        1_000,
      );
    expect(late.status).toBe('lease_lost');
    const [after] = await deliveriesOf(b.app, team.team.id, sessionId);
    expect(after).toMatchObject({
      status: 'delivered',
      attempts: [
        { number: 1, outcome: 'http_error' },
        { number: 2, outcome: 'success' },
      ],
    });
    expect(receiver.requests).toHaveLength(1);
  });
});
