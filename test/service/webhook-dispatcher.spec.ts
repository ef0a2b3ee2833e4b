import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { WebhookEndpointsService } from '../../src/webhooks/webhook-endpoints.service.js';
import { WebhookOutbox, type OutboxEvent } from '../../src/webhooks/webhook-outbox.js';
import { WebhooksModule } from '../../src/webhooks/webhooks.module.js';
import { ApiKeysModule } from '../../src/api-keys/api-keys.module.js';
import { SessionsModule } from '../../src/sessions/sessions.module.js';
import { SessionsService } from '../../src/sessions/api/sessions.service.js';
import { createTestDatabase, type TestDatabase } from '../support/create-test-app.js';
import { createTeamWithKey } from '../support/fixtures.js';
import { createServiceContext, type ServiceContext } from '../support/service-context.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** The dispatcher on a real database and a real receiver: claims, signs, sends and records. */
describe(WebhookDispatcher.name, () => {
  let database: TestDatabase;
  let context: ServiceContext;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    database = await createTestDatabase();
    context = await createServiceContext(
      { ...database.env, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT: '500ms', WEBHOOK_RETRY_SCHEDULE: '10s,20s' },
      [WebhooksModule, SessionsModule, ApiKeysModule],
    );
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await context?.close();
    await receiver?.close();
    await database?.drop();
  });

  const get = <T>(type: new (...args: never[]) => T) => context.module.get(type, { strict: false });

  /** An endpoint of a new pro team and one message for it, committed by the outbox. */
  async function queuedMessage(): Promise<{ secret: string; endpointId: string; event: OutboxEvent }> {
    const { secret, endpointId, events } = await queuedMessages(1);
    return { secret, endpointId, event: events[0] };
  }

  /** An endpoint of a new pro team and `count` messages for it, committed by the outbox. */
  async function queuedMessages(count: number): Promise<{ secret: string; endpointId: string; events: OutboxEvent[] }> {
    const { team, apiKey } = await createTeamWithKey(context.module);
    const { endpoint, secret } = await get(WebhookEndpointsService).create(team.id, { url: receiver.url() });
    const events: OutboxEvent[] = [];
    for (let i = 0; i < count; i++) {
      // A message belongs to a session (a foreign key): a real one, though the event is made up here.
      const session = await get(SessionsService).start({ kind: 'apiKey', apiKey, team }, 'simulator', {
        endUserIp: '192.0.2.1',
      });
      events.push({
        teamId: team.id,
        environment: 'test',
        sessionId: session.sessionId,
        type: 'auth.session.failed',
        occurredAt: context.clock.now(),
        data: { status: 'failed', hintCode: 'userCancel' },
      });
    }
    await get(DataSource).transaction((manager) => get(WebhookOutbox).enqueue(manager, events, context.clock.now()));
    return { secret, endpointId: endpoint.id, events };
  }

  const deliveryOf = async (sessionId: string) => {
    const [row]: { status: string; attempt_count: number; next_attempt_at: Date; id: string }[] = await get(DataSource).query(
      `SELECT id, status, attempt_count, next_attempt_at FROM webhook_deliveries WHERE session_id = $1`,
      [sessionId],
    );
    return row;
  };

  async function dispatch(): Promise<void> {
    get(WebhookDispatcher).wake();
    await get(WebhookDispatcher).idle();
  }

  it('should send a due message signed with the endpoint secret and record it delivered', async () => {
    const { secret, event } = await queuedMessage();
    const before = receiver.requests.length;

    await dispatch();

    const received = receiver.requests.slice(before);
    expect(received).toHaveLength(1);
    expect(new Webhook(secret).verify(received[0].body, received[0].headers as Record<string, string>)).toMatchObject({
      type: 'auth.session.failed',
      data: { status: 'failed', hintCode: 'userCancel' },
    });
    expect(await deliveryOf(event.sessionId)).toMatchObject({ status: 'delivered', attempt_count: 1 });
  });

  it("should send more messages than one endpoint's share from one wake, as slots free (no poll needed)", async () => {
    // Three times the per-endpoint share (4): each freed slot must lead to the next claim.
    const { events } = await queuedMessages(12);
    const before = receiver.requests.length;

    await dispatch();

    expect(receiver.requests.length - before).toBe(12);
    for (const event of events) expect(await deliveryOf(event.sessionId)).toMatchObject({ status: 'delivered' });
  });

  it('should send a whole burst from one wake when attempts finish while the next claim runs', async () => {
    // Answers 0–12 ms apart: attempts finish during claims, which once cost the endpoint its mark
    // and left the rest of the burst for the poll.
    const { events } = await queuedMessages(24);
    const before = receiver.requests.length;
    receiver.answerNext(...events.map((_, i) => ({ status: 200, delayMs: (i * 7) % 13 })));

    await dispatch();

    expect(receiver.requests.length - before).toBe(24);
  });

  it('should schedule a retry after a failed attempt and send it once due', async () => {
    const { event } = await queuedMessage();
    receiver.answerNext({ status: 500 });

    await dispatch();
    const retrying = await deliveryOf(event.sessionId);
    expect(retrying).toMatchObject({ status: 'pending', attempt_count: 1 });
    // The first retry waits 10 s ± 20 %.
    const delayMs = new Date(retrying.next_attempt_at).getTime() - context.clock.nowMs();
    expect(delayMs).toBeGreaterThan(7_000);
    expect(delayMs).toBeLessThanOrEqual(12_000);

    await dispatch();
    expect(await deliveryOf(event.sessionId)).toMatchObject({ status: 'pending', attempt_count: 1 });

    context.clock.advance(12_000);
    await dispatch();
    expect(await deliveryOf(event.sessionId)).toMatchObject({ status: 'delivered', attempt_count: 2 });
  });

  it('should disable an endpoint that answers 410 Gone', async () => {
    const { event, endpointId } = await queuedMessage();
    receiver.answerNext({ status: 410 });

    await dispatch();

    expect(await deliveryOf(event.sessionId)).toMatchObject({ attempt_count: 1 });
    const [endpoint]: { disabled_reason: string | null }[] = await get(DataSource).query(
      `SELECT disabled_reason FROM webhook_endpoints WHERE id = $1`,
      [endpointId],
    );
    expect(endpoint.disabled_reason).toBe('gone');
  });
});
