import { UsersService } from '../../../src/users/users.service.js';
import { createTestApp } from '../../support/create-test-app.js';
import { itOnPostgres } from '../../support/test-postgres.js';
import { startSmsGatewayReceiver, type SmsGatewayReceiver } from '../../support/sms-gateway-receiver.js';
import { httpOf, useE2eApp } from '../../support/e2e.js';

describe('OTP login through the SMS gateway (OTP_DELIVERY=http, a real HTTP receiver on loopback)', () => {
  let gateway: SmsGatewayReceiver;
  beforeAll(async () => {
    gateway = await startSmsGatewayReceiver();
  });
  const e2e = useE2eApp({ env: () => ({ OTP_DELIVERY: 'http', OTP_HTTP_URL: gateway.url }), withKey: { scopes: ['otp'] } });
  afterAll(async () => {
    await gateway?.close();
  });

  const askForCode = (body: object) => e2e.http.post('/ask_for_approval/login-otp').set('x-api-key', e2e.key).send(body);
  const validate = (body: object) => e2e.http.post('/ask_for_approval/login-otp-validate').set('x-api-key', e2e.key).send(body);

  beforeEach(() => {
    e2e.clock.freeze();
    gateway.answerWith(200);
  });

  it('should text the code to the phone and take it back', async () => {
    const user = await e2e.app.get(UsersService).create({ teamId: e2e.team.id, phone: '+46701234567' });
    const asked = await askForCode({ e164MobilePhoneNumber: '+46701234567' }).expect(200);
    expect(asked.body.userGuid).toBe(user.id);

    const sent = gateway.requests.at(-1)!;
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.body).toEqual({
      channel: 'sms',
      to: '+46701234567',
      code: expect.stringMatching(/^\d{6}$/),
      message: expect.stringContaining('valid for 5 minutes'),
    });
    expect(sent.body.message).toContain(sent.body.code);
    await validate({ userGuid: user.id, validationCode: sent.body.code }).expect(200);
  });

  it('should send by e-mail through the gateway when only an e-mail is given, and need every given contact to match', async () => {
    const user = await e2e.app.get(UsersService).create({ teamId: e2e.team.id, email: 'both@example.com', phone: '+46701111111' });
    await askForCode({ email: 'both@example.com' }).expect(200);
    expect(gateway.requests.at(-1)!.body).toMatchObject({ channel: 'email', to: 'both@example.com' });

    e2e.clock.advance(30_000);
    const both = await askForCode({ email: 'both@example.com', e164MobilePhoneNumber: '+46701111111' }).expect(200);
    expect(both.body.userGuid).toBe(user.id);
    expect(gateway.requests.at(-1)!.body).toMatchObject({ channel: 'sms', to: '+46701111111' });

    const count = gateway.requests.length;
    const mismatch = await askForCode({ email: 'both@example.com', e164MobilePhoneNumber: '+46702222222' }).expect(200);
    expect(mismatch.body.userGuid).not.toBe(user.id);
    expect(gateway.requests).toHaveLength(count);
  });

  it('should send nothing for an unknown phone', async () => {
    const count = gateway.requests.length;
    const asked = await askForCode({ e164MobilePhoneNumber: '+46709999999' }).expect(200);
    expect(Object.keys(asked.body).sort()).toEqual(['userGuid', 'validationCodeValidUntilUtc']);
    expect(gateway.requests).toHaveLength(count);
  });

  it('should answer 502 when the gateway refuses, leave the code it got invalid, and allow a retry at once', async () => {
    const user = await e2e.app.get(UsersService).create({ teamId: e2e.team.id, phone: '+46703333333' });
    gateway.answerWith(503);
    const failed = await askForCode({ e164MobilePhoneNumber: '+46703333333' }).expect(502);
    expect(failed.body.code).toBe('otp_delivery_failed');
    const undelivered = gateway.requests.at(-1)!.body.code;
    expect((await validate({ userGuid: user.id, validationCode: undelivered }).expect(401)).body.code).toBe('validation_code_expired');

    gateway.answerWith(200);
    await askForCode({ e164MobilePhoneNumber: '+46703333333' }).expect(200);
    await validate({ userGuid: user.id, validationCode: gateway.requests.at(-1)!.body.code }).expect(200);
  });

  itOnPostgres('should answer 502 when the gateway cannot be reached', async () => {
    const closed = await startSmsGatewayReceiver();
    await closed.close();
    const unreachable = await createTestApp({ ...e2e.database.env, OTP_DELIVERY: 'http', OTP_HTTP_URL: closed.url });
    try {
      await e2e.app.get(UsersService).create({ teamId: e2e.team.id, phone: '+46704444444' });
      const res = await httpOf(unreachable.app)
        .post('/ask_for_approval/login-otp')
        .set('x-api-key', e2e.key)
        .send({ e164MobilePhoneNumber: '+46704444444' })
        .expect(502);
      expect(res.body.code).toBe('otp_delivery_failed');
    } finally {
      await unreachable.close();
    }
  });
});
