import { WebhookReceiver } from '../../test/support/webhook-receiver.js';
import { RESPONSE_EXCERPT_BYTES, WebhookSender } from './webhook-sender.js';

describe(WebhookSender.name, () => {
  let receiver: WebhookReceiver;
  const senders: WebhookSender[] = [];
  const sender = (options: Partial<ConstructorParameters<typeof WebhookSender>[0]> = {}) => {
    const made = new WebhookSender({ timeoutMs: 2_000, allowPrivateTargets: true, ...options });
    senders.push(made);
    return made;
  };
  const webhook = (url = receiver.url()) => ({ url, headers: { 'webhook-id': 'msg_1' }, body: '{"a":1}' });

  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.close()));
    await receiver.close();
  });

  it('should POST the exact body as JSON and call a 2xx a success', async () => {
    receiver.answerNext({ status: 204 });
    const result = await sender().send(webhook());
    expect(result).toEqual({ outcome: 'success', statusCode: 204, latencyMs: expect.any(Number), error: null, responseExcerpt: null });
    expect(receiver.requests[0]).toMatchObject({ body: '{"a":1}', headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' } });
  });

  it('should call any other status a failure and keep an excerpt of the answer', async () => {
    receiver.answerNext({ status: 500, body: 'database down' });
    expect(await sender().send(webhook())).toMatchObject({
      outcome: 'http_error',
      statusCode: 500,
      error: 'HTTP 500',
      responseExcerpt: 'database down',
    });
  });

  it('should not follow a redirect', async () => {
    receiver.answerNext({ status: 307, headers: { location: receiver.url('/elsewhere') } });
    expect(await sender().send(webhook())).toMatchObject({ outcome: 'http_error', statusCode: 307 });
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hooks/eid']);
  });

  it('should read no more than the excerpt of a large answer', async () => {
    receiver.answerNext({ status: 200, body: 'x'.repeat(5 * 1024 * 1024) });
    const result = await sender().send(webhook());
    expect(result.outcome).toBe('success');
    expect(result.responseExcerpt).toHaveLength(RESPONSE_EXCERPT_BYTES);
  });

  it('should give up on a receiver that does not answer in time', async () => {
    receiver.answerNext({ hang: true });
    expect(await sender({ timeoutMs: 300 }).send(webhook())).toMatchObject({
      outcome: 'timeout',
      statusCode: null,
      error: 'Timed out after 300 ms',
    });
  });

  it('should report a refused connection as a network error', async () => {
    const closed = await WebhookReceiver.start();
    const url = closed.url();
    await closed.close();
    expect(await sender().send(webhook(url))).toMatchObject({ outcome: 'network_error', error: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('should refuse a loopback address unless private targets are allowed', async () => {
    const result = await sender({ allowPrivateTargets: false }).send(webhook());
    expect(result).toMatchObject({
      outcome: 'refused',
      error: 'Refused: 127.0.0.1 is a loopback address; webhooks go to public addresses only',
    });
    expect(receiver.requests).toHaveLength(0);
  });

  it('should refuse a name that resolves to an internal address when connecting (DNS rebinding)', async () => {
    const rebinding = async () => [{ address: '127.0.0.1', family: 4 }];
    const result = await sender({ allowPrivateTargets: false, resolve: rebinding }).send(
      webhook(`http://hooks.example.com:${receiver.port}/`),
    );
    expect(result).toMatchObject({
      outcome: 'refused',
      error: expect.stringMatching(/hooks\.example\.com \(127\.0\.0\.1\) is a loopback address/),
    });
    expect(receiver.requests).toHaveLength(0);
  });
});
