import { FAKE_USER } from '../../fakes/bankid-rp-fake.js';
import { useE2eApp } from '../../support/e2e.js';
import { useBankIdFake } from '../../support/fake-rp-apis.js';
import { recordFigures } from '../../support/fault-lab.js';
import { finalWebhooks } from '../../support/session-load.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { createEndpoint, waitUntil } from '../../support/webhooks.js';

// docs/reliability.md, "A provider hangs or answers garbage": BankID's calls time out (BANKID_TIMEOUT),
// its sessions stay pending and are collected again, and the simulator's sessions, collected by the same
// background collector on its real 2 s interval, do not wait for BankID.
const HANG_MS = 60_000;

describe('Faults: a provider that hangs or answers garbage', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  const bankId = useBankIdFake({ now: () => new Date() });
  const e2e = useE2eApp({
    env: () => ({
      PROVIDERS: 'simulator,bankid',
      ...bankId.env(),
      BANKID_TEST_EVIDENCE_ROOTS: bankId.fake.evidenceRootPem,
      // Each BankID call gives up after 15 s, twice (one retry): a collect of a hanging BankID takes 30 s.
      // Generous, so that the simulator's sessions end before the first timeout even on a loaded machine.
      BANKID_TIMEOUT: '15s',
      BANKID_RETRY_SCHEDULE: '100ms',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    }),
    withKey: { plan: 'pro' },
    bootTimeout: 120_000,
  });
  afterAll(async () => {
    await receiver?.close();
  });
  beforeAll(async () => {
    await createEndpoint(e2e.app, e2e.team.id, { url: receiver.url(), environment: 'test' });
  });

  const start = async (provider: 'bankid' | 'simulator') =>
    (await e2e.http.post(`/api/v1/auth/${provider}/start`).set('x-api-key', e2e.key).send({ endUserIp: '192.0.2.10' }).expect(200))
      .body as { sessionId: string; autoStartToken: string };
  const finalOf = (sessionId: string) =>
    waitUntil(async () => finalWebhooks(receiver).has(sessionId) && receiver.requests.length, `the final webhook of ${sessionId}`, 30_000);
  const collectsAnswered = () => bankId.fake.requestsTo('collect').length;

  it('should keep collecting the simulator while BankID hangs, and complete the BankID sessions once it answers again', async () => {
    // BankID sessions the end user approves while BankID's collect hangs.
    const bankIdSessions = await Promise.all([start('bankid'), start('bankid')]);
    for (const session of bankIdSessions) bankId.fake.approve(bankId.fake.openWithAutoStartToken(session.autoStartToken));
    bankId.fake.injectFault({ path: 'collect', times: 1_000, delayMs: HANG_MS });
    const hangFrom = collectsAnswered();
    await waitUntil(async () => collectsAnswered() > hangFrom, 'a collect to reach the hanging BankID', 10_000);
    const hungAt = Date.now();

    // Simulator sessions approved now, with BankID's collect in progress: the background collector ends
    // them and their webhooks go, while that collect still hangs (nobody polls).
    await Promise.all(
      [1, 2, 3].map(async () => {
        const session = await start('simulator');
        await e2e.http.post('/api/v1/simulator/scan').send({ autoStartToken: session.autoStartToken }).expect(200);
        await finalOf(session.sessionId);
      }),
    );
    const simulatorDoneMs = Date.now() - hungAt;
    // They ended while BankID's first collects still hung: none of those has timed out and been retried.
    expect(collectsAnswered()).toBeLessThanOrEqual(hangFrom + bankIdSessions.length);

    // Then garbage: a 200 whose body is not JSON. Still pending, collected again.
    bankId.fake.clearFaults();
    bankId.fake.injectFault({ path: 'collect', times: 4, garbage: '<html>502 Bad Gateway</html>' });
    // And BankID is back: each session stayed pending through the hang and the garbage, and completes
    // now, with exactly one final webhook.
    for (const session of bankIdSessions) {
      await finalOf(session.sessionId);
      expect(finalWebhooks(receiver).get(session.sessionId)!.size).toBe(1);
      const final = receiver.requests.map((r) => JSON.parse(r.body)).find((event) => event.data?.sessionId === session.sessionId);
      expect(final).toMatchObject({ type: 'auth.session.completed', data: { status: 'complete' } });
    }
    const polled = await e2e.http.post(`/api/v1/auth/${bankIdSessions[0].sessionId}/poll`).set('x-api-key', e2e.key).expect(200);
    expect(polled.body).toMatchObject({ status: 'complete', user: FAKE_USER });

    await recordFigures({
      fault: 'BankID collect hangs (BANKID_TIMEOUT 15 s, one retry), then answers garbage',
      faultSeconds: (Date.now() - hungAt) / 1000,
      degradedSeconds: 0,
      requests: {},
      sessions: bankIdSessions.length + 3,
      sessionsLost: 0,
      webhooksLost: 0,
      webhooksDuplicated: [...finalWebhooks(receiver).values()].filter((ids) => ids.size > 1).length,
      note: `simulator sessions approved during the hang reported within ${(simulatorDoneMs / 1000).toFixed(1)} s; BankID sessions stayed pending and completed after`,
    });
  }, 180_000);
});
