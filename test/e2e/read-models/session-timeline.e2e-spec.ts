import { TokensService } from '../../../src/tokens/tokens.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { useE2eApp } from '../../support/e2e.js';
import { expectMatchesSchema } from '../../support/openapi.js';
import { expectProblem } from '../../support/problem.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { completeSimulatorSession, createEndpoint, waitForDelivery } from '../../support/webhooks.js';

describe("GET /api/v1/sessions/{id}/timeline: a session's story without personal data", () => {
  const e2e = useE2eApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, withKey: { plan: 'pro' } });
  let receiver: WebhookReceiver;
  let bearer: string;
  let otherBearer: string;

  const memberBearer = async (teamId: string, email: string) => {
    const user = await e2e.app.get(UsersService).create({ teamId, email });
    return `Bearer ${(await e2e.app.get(TokensService).issue({ userId: user.id, teamId, clientId: 'test' })).token}`;
  };
  const timeline = (id: string, authorization = bearer) =>
    e2e.http.get(`/api/v1/sessions/${id}/timeline`).set('authorization', authorization);

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    await createEndpoint(e2e.app, e2e.team.id, { url: receiver.url() });
    bearer = await memberBearer(e2e.team.id, 'timeline@example.com');
    otherBearer = await memberBearer((await createTeamWithKey(e2e.app)).team.id, 'other-timeline@example.com');
  });
  afterAll(() => receiver?.close());
  beforeEach(() => e2e.clock.freeze());

  it('should tell the changes, the webhook with its attempt, the evidence check and the OpenID client', async () => {
    const sessionId = await completeSimulatorSession(e2e.app, e2e.clock, e2e.key, {
      metadata: { oidcClientId: 'shop-client', orderId: 'order-4711' },
    });
    await waitForDelivery(e2e.app, e2e.team.id, sessionId, (d) => d.status === 'delivered', 'the delivery');
    const res = await timeline(sessionId).expect(200);
    expectMatchesSchema(res, 'GET /api/v1/sessions/{sessionId}/timeline');
    expect(res.body.session).toMatchObject({ sessionId, provider: 'simulator', environment: 'test', status: 'complete', hintCode: null });
    expect(res.body.events.map((event: { status: string; hintCode: string | null }) => [event.status, event.hintCode])).toEqual([
      ['pending', 'outstandingTransaction'],
      ['complete', null],
    ]);
    expect(res.body.webhooks).toEqual([
      expect.objectContaining({
        eventType: 'auth.session.completed',
        status: 'delivered',
        url: receiver.url(),
        attempts: [expect.objectContaining({ number: 1, outcome: 'success', statusCode: 200, trigger: 'scheduled' })],
      }),
    ]);
    expect(res.body.evidence).toMatchObject({ state: 'checked', verification: { status: 'verified' } });
    expect(res.body.oidcClientId).toBe('shop-client');
    // No person: not the personal number, the end user's address, the RP's other metadata or a payload.
    const text = JSON.stringify(res.body);
    for (const secret of ['198507099805', '192.0.2.10', 'order-4711', 'givenName', 'resultToken']) expect(text).not.toContain(secret);
  });

  it('should show a cancel as the last change, and no OpenID client when none started it', async () => {
    const sessionId = await completeSimulatorSession(e2e.app, e2e.clock, e2e.key, { action: 'cancel' });
    const res = await timeline(sessionId).expect(200);
    expect(res.body.events.at(-1)).toMatchObject({ status: 'failed', hintCode: 'userCancel' });
    expect(res.body.evidence).toEqual({ state: 'none' });
    expect(res.body.oidcClientId).toBeNull();
  });

  it("should answer another team's session, an unknown one and a malformed id alike, and refuse an API key", async () => {
    const sessionId = await completeSimulatorSession(e2e.app, e2e.clock, e2e.key);
    expectProblem(await timeline(sessionId, otherBearer).expect(404), 404, 'session_not_found');
    expectProblem(await timeline('00000000-0000-4000-8000-000000000000').expect(404), 404, 'session_not_found');
    expectProblem(await timeline('not-a-uuid').expect(404), 404, 'session_not_found');
    expectProblem(
      await e2e.http.get(`/api/v1/sessions/${sessionId}/timeline`).set('x-api-key', e2e.key).expect(403),
      403,
      'endpoint_not_available',
    );
  });
});
