import { runCli } from '../../../src/cli/run-cli.js';
import { WebhookDispatcher } from '../../../src/webhooks/webhook-dispatcher.js';
import { WebhookEndpointsService } from '../../../src/webhooks/webhook-endpoints.service.js';
import { TEST_ENCRYPTION_KEY, withEnv } from '../../support/create-test-app.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { completeSimulatorSession, waitForDelivery } from '../../support/webhooks.js';
import { useE2eApp } from '../../support/e2e.js';

// The default configuration: WEBHOOK_ALLOW_PRIVATE_TARGETS is not set.
describe('Webhooks: internal targets are refused by default (SSRF)', () => {
  // A first start on the embedded PGlite fallback can be slow.
  const e2e = useE2eApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: undefined }, withKey: { plan: 'pro' }, bootTimeout: 120_000 });
  let receiver: WebhookReceiver;
  const endpoints = () => e2e.app.get(WebhookEndpointsService);
  const cli = (env: Record<string, string>, ...argv: string[]) =>
    withEnv({ ...e2e.database.env, LOG_LEVEL: 'silent', DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, ...env }, () => runCli(argv));

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it.each([
    ['the receiver on loopback', () => receiver.url(), /^127\.0\.0\.1 is a loopback address/],
    ['localhost', () => `http://localhost:${receiver.port}/`, /^localhost \((127\.0\.0\.1|::1)\) is a loopback address/],
    ['IPv4-mapped IPv6 loopback', () => 'http://[::ffff:127.0.0.1]/', /^::ffff:7f00:1 is a loopback address/],
    ['the cloud metadata service', () => 'http://169.254.169.254/latest/meta-data/', /^169\.254\.169\.254 is a linkLocal address/],
    ['a private network', () => 'https://10.0.0.8/hooks', /^10\.0\.0\.8 is a private address/],
    ['CGNAT', () => 'https://100.64.1.1/', /^100\.64\.1\.1 is a carrierGradeNat address/],
    ['IPv6 unique local', () => 'https://[fd00:ec2::254]/', /^fd00:ec2::254 is a uniqueLocal address/],
  ])('should refuse an endpoint on %s', async (_, url, message) => {
    await expect(endpoints().create(e2e.team.id, { url: url() })).rejects.toMatchObject({
      code: 'invalid_webhook_url',
      detail: expect.stringMatching(message),
    });
  });

  it('should refuse a private target through the command line and on update', async () => {
    const refused = await cli({}, 'webhooks', 'create', '--team', e2e.team.id, '--url', receiver.url());
    expect(refused).toMatchObject({ exitCode: 1, output: { error: { code: 'invalid_webhook_url' } } });

    const made = await cli(
      { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      'webhooks',
      'create',
      '--team',
      e2e.team.id,
      '--url',
      receiver.url('/allowed'),
    );
    await expect(endpoints().update(e2e.team.id, made.output.id as string, { url: 'http://127.0.0.2/' })).rejects.toMatchObject({
      code: 'invalid_webhook_url',
    });
    await endpoints().remove(e2e.team.id, made.output.id as string);
  });

  it('should refuse to send to an endpoint whose address is internal at send time, and log the attempt', async () => {
    // Made while private targets were allowed (a DNS answer that changed since looks the same to the sender).
    const made = await cli({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, 'webhooks', 'create', '--team', e2e.team.id, '--url', receiver.url());
    expect(made.exitCode).toBe(0);
    e2e.clock.freeze();
    const sessionId = await completeSimulatorSession(e2e.app, e2e.clock, e2e.key);
    const delivery = await waitForDelivery(e2e.app, e2e.team.id, sessionId, (d) => d.attempts.length === 1, 'the refused attempt');
    await e2e.app.get(WebhookDispatcher).idle();

    expect(delivery).toMatchObject({
      status: 'pending',
      attempts: [{ outcome: 'refused', error: 'Refused: 127.0.0.1 is a loopback address; webhooks go to public addresses only' }],
    });
    expect(receiver.requests).toHaveLength(0);
  });
});
