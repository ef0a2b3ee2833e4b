import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, signWebhook } from './webhook-signer.js';

describe(signWebhook.name, () => {
  it('should reproduce the published Standard Webhooks test vector', () => {
    // standard-webhooks/standard-webhooks libraries/javascript/src/webhook.test.ts ("sign function works").
    const headers = signWebhook('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330 * 1000), '{"test": 2432232314}', [
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    ]);
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('should sign with every secret so that both the old and the new one verify during a rotation', () => {
    const [previous, current] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = '{"type":"auth.session.completed"}';
    const headers = signWebhook('msg_1', new Date(), body, [current, previous]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [previous, current]) expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow('No matching signature found');
  });

  it('should make a signature that fails for any other body', () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook('msg_2', new Date(), '{"a":1}', [secret]);
    expect(() => new Webhook(secret).verify('{"a": 1}', { ...headers })).toThrow();
  });
});

describe(generateWebhookSecret.name, () => {
  it('should give whsec_ and the base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});
