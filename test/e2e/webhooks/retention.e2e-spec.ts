import { WebhookEndpointsService } from '../../../src/webhooks/webhook-endpoints.service.js';
import { WebhookPayloadPurgeJob } from '../../../src/webhooks/webhook-payload-purge.job.js';
import { RESPONSE_EXCERPT_BYTES } from '../../../src/webhooks/webhook-sender.js';
import { useE2eApp } from '../../support/e2e.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { completeSimulatorSession, createEndpoint, deliveriesOf, waitForDelivery } from '../../support/webhooks.js';

const HOUR = 3_600_000;

/** docs/webhooks.md (retention): no personal data stays in the delivery log past the retention period. */
describe("Webhook retention: undeliverable payloads and receivers' answers", () => {
  const e2e = useE2eApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT: '500ms' }, freezeClock: true });
  let receiver: WebhookReceiver;

  const purge = () => e2e.app.get(WebhookPayloadPurgeJob).purgeDeliveredPayloads();

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it("should keep at most 256 bytes of a receiver's answer, and erase it with the payload", async () => {
    const team = await createTeamWithKey(e2e.app, { plan: 'pro' });
    await createEndpoint(e2e.app, team.team.id, { url: receiver.url() });
    // A receiver that echoes what it got, personal number and all, in multi-byte text.
    receiver.answerNext({ status: 200, body: `ÅÄÖ 198507099805 ${'é'.repeat(2_000)}` });
    const sessionId = await completeSimulatorSession(e2e.app, e2e.clock, team.key);
    const delivered = await waitForDelivery(e2e.app, team.team.id, sessionId, (d) => d.status === 'delivered', 'the delivery');
    const excerpt = delivered.attempts[0].responseExcerpt!;
    expect(RESPONSE_EXCERPT_BYTES).toBe(256);
    expect(Buffer.byteLength(excerpt)).toBeLessThanOrEqual(256);
    expect(excerpt).toMatch(/^ÅÄÖ 198507099805 é+$/);

    e2e.clock.advance(HOUR);
    expect(await purge()).toBeGreaterThanOrEqual(1);
    const [after] = await deliveriesOf(e2e.app, team.team.id, sessionId);
    expect(after.payloadPurgedAt).toBe(e2e.clock.now().toISOString());
    expect(after.attempts).toHaveLength(1);
    expect(after.attempts[0].responseExcerpt).toBeUndefined();
  });

  it('should end and erase the messages of a disabled endpoint on the same schedule, counted from the disabling', async () => {
    const team = await createTeamWithKey(e2e.app, { plan: 'pro' });
    const { endpoint } = await createEndpoint(e2e.app, team.team.id, { url: receiver.url() });
    // The first attempt fails; the message waits for its retry when the endpoint is disabled.
    receiver.answerNext({ status: 500 });
    const sessionId = await completeSimulatorSession(e2e.app, e2e.clock, team.key);
    await waitForDelivery(
      e2e.app,
      team.team.id,
      sessionId,
      (d) => d.status === 'pending' && d.attempts.length === 1,
      'the failed first attempt',
    );
    await e2e.app.get(WebhookEndpointsService).update(team.team.id, endpoint.id, { enabled: false });

    e2e.clock.advance(HOUR - 60_000);
    await purge();
    expect((await deliveriesOf(e2e.app, team.team.id, sessionId))[0]).toMatchObject({ status: 'pending' });
    expect((await deliveriesOf(e2e.app, team.team.id, sessionId))[0].payloadPurgedAt).toBeUndefined();

    e2e.clock.advance(60_000);
    expect(await purge()).toBeGreaterThanOrEqual(1);
    const [ended] = await deliveriesOf(e2e.app, team.team.id, sessionId);
    expect(ended).toMatchObject({ status: 'failed', payloadPurgedAt: e2e.clock.now().toISOString() });
  });
});
