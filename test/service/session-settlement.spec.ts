import { jest } from '@jest/globals';
import { DataSource } from 'typeorm';
import type { ApiKeyPrincipal } from '../../src/auth/principal.js';
import { KioskTokenModule } from '../../src/kiosk-tokens/kiosk-token.module.js';
import { ApiKeysModule } from '../../src/api-keys/api-keys.module.js';
import { SimulatorProvider } from '../../src/eid-providers/simulator/simulator.provider.js';
import { SessionSettlement } from '../../src/sessions/settlement/session-settlement.js';
import { SessionStore } from '../../src/sessions/session.store.js';
import { SessionsModule } from '../../src/sessions/sessions.module.js';
import { SessionsService } from '../../src/sessions/api/sessions.service.js';
import { WebhookEndpointsService } from '../../src/webhooks/webhook-endpoints.service.js';
import { createTestDatabase, type TestDatabase } from '../support/create-test-app.js';
import { createTeamWithKey } from '../support/fixtures.js';
import { createServiceContext, type ServiceContext } from '../support/service-context.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT: '500ms' };
const USER = { personalNumber: '198507099805', name: 'Anna Andersson', givenName: 'Anna', surname: 'Andersson' };

/** The collector's settlement on a real database: transitions and outbox messages, one transaction. */
describe(SessionSettlement.name, () => {
  let database: TestDatabase;
  let context: ServiceContext;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    database = await createTestDatabase();
    context = await createServiceContext({ ...database.env, ...ENV }, [SessionsModule, ApiKeysModule, KioskTokenModule]);
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await context?.close();
    await receiver?.close();
    await database?.drop();
  });

  const get = <T>(type: new (...args: never[]) => T) => context.module.get(type, { strict: false });

  /** A team with a key and, unless told otherwise, an endpoint that wants every event. */
  async function team(options: { endpoint?: boolean } = {}) {
    const { team, apiKey } = await createTeamWithKey(context.module);
    if (options.endpoint !== false) await get(WebhookEndpointsService).create(team.id, { url: receiver.url() });
    return { kind: 'apiKey', apiKey, team } as ApiKeyPrincipal;
  }

  /** A session the end user has approved in the app, not yet collected. */
  async function approvedSession(principal: ApiKeyPrincipal): Promise<string> {
    const started = await get(SessionsService).start(principal, 'simulator', { endUserIp: '192.0.2.1' });
    await get(SimulatorProvider).scan({ autoStartToken: started.autoStartToken, action: 'approve', user: USER });
    return started.sessionId;
  }

  const messagesOf = async (sessionId: string): Promise<{ event_type: string }[]> =>
    get(DataSource).query(`SELECT event_type FROM webhook_deliveries WHERE session_id = $1`, [sessionId]);

  it('should complete an approved session and write its webhook message with it', async () => {
    const principal = await team();
    const sessionId = await approvedSession(principal);
    context.clock.advance(2_500);

    expect(await get(SessionSettlement).collectDue()).toContain(sessionId);

    expect((await get(SessionStore).getById(sessionId)).status).toBe('complete');
    expect(await messagesOf(sessionId)).toEqual([{ event_type: 'auth.session.completed' }]);
    const [received] = await receiver.waitForRequests(1);
    const { data } = JSON.parse(received.body);
    expect(data).toMatchObject({
      sessionId,
      status: 'complete',
      user: USER,
      evidence: { verification: { status: 'verified' } },
      resultToken: expect.any(String),
    });
    // Verified and signed once, where the completion was written: a poll reads the same result.
    const polled = await get(SessionsService).poll(principal, sessionId);
    expect(polled).toMatchObject({ evidence: data.evidence, resultToken: data.resultToken });
  });

  it('should write a large batch of completions in several transactions, each session with its message', async () => {
    const principal = await team();
    const sessionIds: string[] = [];
    for (let i = 0; i < 8; i++) sessionIds.push(await approvedSession(principal));
    context.clock.advance(2_500);
    const transactions = jest.spyOn(get(SessionStore), 'transaction');

    try {
      expect(await get(SessionSettlement).collectDue()).toEqual(expect.arrayContaining(sessionIds));
      // Verifying one completion's evidence takes longer than a slice (SETTLE_SLICE_MS): the first
      // messages are committed, and can be sent, while later sessions are still being verified.
      expect(transactions.mock.calls.length).toBeGreaterThan(1);
    } finally {
      transactions.mockRestore();
    }
    for (const sessionId of sessionIds) {
      expect((await get(SessionStore).getById(sessionId)).status).toBe('complete');
      expect(await messagesOf(sessionId)).toEqual([{ event_type: 'auth.session.completed' }]);
    }
  });

  it('should write no message for a team that has left the pro plan', async () => {
    const principal = await team();
    await get(DataSource).query(`UPDATE teams SET plan = 'free' WHERE id = $1`, [principal.team.id]);
    const sessionId = await approvedSession(principal);
    context.clock.advance(2_500);

    await get(SessionSettlement).collectDue();

    expect((await get(SessionStore).getById(sessionId)).status).toBe('complete');
    expect(await messagesOf(sessionId)).toEqual([]);
  });

  it('should leave a session that something else ended first as it is, with no second message', async () => {
    const principal = await team();
    const sessionId = await approvedSession(principal);
    const stale = await get(SessionStore).getById(sessionId);
    await get(SessionsService).cancel(principal, sessionId);

    const outcome = await get(SessionSettlement).apply(stale, { kind: 'complete', completion: { user: USER } });

    expect(outcome).toBeNull();
    const stored = await get(SessionStore).getById(sessionId);
    expect({ status: stored.status, hintCode: stored.hintCode, completionEnc: stored.completionEnc }).toEqual({
      status: 'failed',
      hintCode: 'cancelled',
      completionEnc: null,
    });
    expect(await messagesOf(sessionId)).toEqual([{ event_type: 'auth.session.failed' }]);
  });

  it('should hand each due session to one of two replicas collecting at once', async () => {
    const second = await createServiceContext({ ...database.env, ...ENV }, [SessionsModule, ApiKeysModule, KioskTokenModule]);
    try {
      const principal = await team();
      const ids = await Promise.all(Array.from({ length: 6 }, () => approvedSession(principal)));
      context.clock.advance(2_500);
      second.clock.advance(2_500);

      const [a, b] = await Promise.all([
        get(SessionSettlement).collectDue(),
        second.module.get(SessionSettlement, { strict: false }).collectDue(),
      ]);

      expect([...a, ...b].filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
      for (const id of ids) expect(await messagesOf(id)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
