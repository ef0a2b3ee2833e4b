import { createRemoteJWKSet, jwtVerify } from 'jose';
import { DataSource } from 'typeorm';
import { OtpService } from '../../../src/otp/otp.service.js';
import type { User } from '../../../src/users/user.entity.js';
import { UsersService } from '../../../src/users/users.service.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { NO_IP_BLOCKING } from '../../support/protection-backends.js';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.js';
import { useE2eApp } from '../../support/e2e.js';
import { expectMatchesSchema } from '../../support/openapi.js';
import { expectValidationProblem } from '../../support/problem.js';

const ZONELESS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('OTP login by e-mail (real SMTP on loopback), JWT and the management API', () => {
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  const e2e = useE2eApp({
    env: () => ({ ...NO_IP_BLOCKING, OTP_DELIVERY: 'smtp', SMTP_URL: smtp.url, SMTP_FROM: 'Login <login@eid.example>' }),
    withKey: { scopes: ['otp'] },
    freezeClock: true,
  });
  afterAll(async () => {
    await smtp?.close();
  });

  const askForCode = (body: object, key = e2e.key) =>
    e2e.http
      .post('/ask_for_approval/login-otp')
      .set('x-api-key', key)
      .send(body)
      .expect((res) => expectMatchesSchema(res, 'POST /ask_for_approval/login-otp'));
  const validate = (body: object, key = e2e.key) =>
    e2e.http
      .post('/ask_for_approval/login-otp-validate')
      .set('x-api-key', key)
      .send(body)
      .expect((res) => expectMatchesSchema(res, 'POST /ask_for_approval/login-otp-validate'));
  const codeIn = (mail: { raw: string }) => /login code is (\d{6})\./.exec(mail.raw)![1];

  let memberCount = 0;
  async function newMember(): Promise<User> {
    memberCount += 1;
    return e2e.app.get(UsersService).create({ teamId: e2e.team.id, email: `Member${memberCount}@Example.com` });
  }

  /** Asks for a code for the member and reads it from the mail that arrived. */
  async function codeFor(user: User): Promise<{ userGuid: string; code: string; validUntil: string }> {
    const before = smtp.messages.length;
    const res = await askForCode({ email: user.email }).expect(200);
    expect(smtp.messages).toHaveLength(before + 1);
    return { userGuid: res.body.userGuid, code: codeIn(smtp.messages.at(-1)!), validUntil: res.body.validationCodeValidUntilUtc };
  }

  it('should log in with an e-mailed code, verify the token from the JWKS over HTTP, and manage keys and sessions with it', async () => {
    const user = await newMember();
    const asked = await askForCode({ email: 'member1@EXAMPLE.com' }).expect(200);
    expect(asked.body).toEqual({ userGuid: user.id, validationCodeValidUntilUtc: expect.stringMatching(ZONELESS_UTC) });
    expect(asked.body.validationCodeValidUntilUtc).toBe(new Date(e2e.clock.nowMs() + 300_000).toISOString().slice(0, -1));

    const mail = smtp.messages.at(-1)!;
    expect(mail.to).toEqual(['member1@example.com']);
    expect(mail.from).toBe('login@eid.example');
    expect(mail.raw).toMatch(/Subject: Your login code/);
    const code = codeIn(mail);

    const validated = await validate({ userGuid: user.id, validationCode: code }).expect(200);
    expect(validated.body).toEqual({
      userGuid: user.id,
      token: expect.any(String),
      tokenExpiresAtUtc: expect.stringMatching(ZONELESS_UTC),
    });
    const { token } = validated.body;

    // Another service verifies the token from the JWKS alone, over HTTP.
    await e2e.app.listen(0, '127.0.0.1');
    const jwks = createRemoteJWKSet(new URL(`${await e2e.app.getUrl()}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(token, jwks, {
      issuer: 'http://localhost:3000',
      audience: 'eid-gateway',
      currentDate: e2e.clock.now(),
    });
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: expect.any(String), typ: 'at+jwt' });
    expect(payload).toEqual({
      iss: 'http://localhost:3000',
      aud: 'eid-gateway',
      sub: user.id,
      team: e2e.team.id,
      client_id: expect.stringMatching(UUID),
      jti: expect.stringMatching(UUID),
      iat: Math.floor(e2e.clock.nowMs() / 1000),
      exp: Math.floor(e2e.clock.nowMs() / 1000) + 3600,
    });
    expect(validated.body.tokenExpiresAtUtc).toBe(new Date(payload.exp! * 1000).toISOString().slice(0, -1));

    const bearer = `Bearer ${token}`;
    const me = await e2e.http
      .get('/api/v1/me')
      .set('authorization', bearer)
      .expect(200)
      .expect((res) => expectMatchesSchema(res, 'GET /api/v1/me'));
    expect(me.body).toEqual({
      user: { id: user.id, email: 'member1@example.com', phone: null, createdAt: expect.any(String) },
      team: expect.objectContaining({ id: e2e.team.id, plan: 'pro', features: ['pro'] }),
    });

    const created = await e2e.http
      .post('/api/v1/api-keys')
      .set('authorization', bearer)
      .send({ name: 'backend', scopes: ['sessions:read', 'sessions:write'] })
      .expect(201);
    expect(created.body).toMatchObject({
      name: 'backend',
      environment: 'test',
      teamId: e2e.team.id,
      key: expect.stringMatching(/^eidk_test_/),
    });
    const started = await e2e.http
      .post('/api/v1/auth/simulator/start')
      .set('x-api-key', created.body.key)
      .send({ endUserIp: '192.0.2.7' })
      .expect(200);

    const listed = await e2e.http
      .get('/api/v1/api-keys')
      .set('authorization', bearer)
      .expect(200)
      .expect((res) => expectMatchesSchema(res, 'GET /api/v1/api-keys'));
    expect(listed.body.map((k: { id: string }) => k.id)).toContain(created.body.id);
    expect(JSON.stringify(listed.body)).not.toMatch(/eidk_(test|live)_[0-9A-Za-z]{38}|keyHash/);

    const sessions = await e2e.http.post('/api/v1/sessions').set('authorization', bearer).send({ startRow: 0, endRow: 10 }).expect(200);
    expect(sessions.body).toEqual({
      success: true,
      lastrow: 1,
      rows: [
        {
          sessionId: started.body.sessionId,
          provider: 'simulator',
          environment: 'test',
          operation: 'auth',
          channel: 'app',
          status: 'pending',
          hintCode: 'outstandingTransaction',
          apiKeyId: created.body.id,
          createdAt: started.body.createdAt,
          expiresAt: started.body.expiresAt,
        },
      ],
    });

    const revoked = await e2e.http
      .post(`/api/v1/api-keys/${created.body.id}/revoke`)
      .set('authorization', bearer)
      .expect(200)
      .expect((res) => expectMatchesSchema(res, 'POST /api/v1/api-keys/{id}/revoke'));
    expect(revoked.body.revokedAt).toBe(e2e.clock.now().toISOString());
    await e2e.http.post(`/api/v1/api-keys/${created.body.id}/revoke`).set('authorization', bearer).expect(200, revoked.body);
    await e2e.http.post('/api/v1/auth/simulator/start').set('x-api-key', created.body.key).send({ endUserIp: '192.0.2.7' }).expect(401);
  });

  it('should keep only a keyed hash of the code', async () => {
    const { userGuid, code } = await codeFor(await newMember());
    const [row] = await e2e.app.get(DataSource).query('SELECT * FROM otp_challenges WHERE user_guid = $1', [userGuid]);
    expect(row.code_hmac).toHaveLength(32);
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row.code_hmac.toString('latin1')).not.toContain(code);
  });

  it('should forget a challenge, and its failure count, a quarter of an hour after the code expired', async () => {
    const { userGuid } = await codeFor(await newMember());
    const otp = e2e.app.get(OtpService);
    const rows = () => e2e.app.get(DataSource).query('SELECT 1 FROM otp_challenges WHERE user_guid = $1', [userGuid]);
    e2e.clock.advance(300_000 + 900_000);
    await otp.purgeExpired();
    expect(await rows()).toHaveLength(1);
    e2e.clock.advance(1_000);
    await otp.purgeExpired();
    expect(await rows()).toHaveLength(0);
  });

  it('should answer a wrong code with 401 invalid_validation_code and still take the right one while it lives', async () => {
    const { userGuid, code } = await codeFor(await newMember());
    const wrong = code === '000000' ? '000001' : '000000';
    const res = await validate({ userGuid, validationCode: wrong }).expect(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'invalid_validation_code', detail: 'The code is wrong; 4 tries left.' });
    expect(JSON.stringify(res.body)).not.toContain(code);
    e2e.clock.advance(299_000);
    await validate({ userGuid, validationCode: code }).expect(200);
    // Used once, never again.
    expect((await validate({ userGuid, validationCode: code }).expect(401)).body.code).toBe('validation_code_expired');
  });

  it('should refuse an expired code with 401 validation_code_expired', async () => {
    const { userGuid, code } = await codeFor(await newMember());
    e2e.clock.advance(300_000);
    expect((await validate({ userGuid, validationCode: code }).expect(401)).body.code).toBe('validation_code_expired');
  });

  it('should void a code after 5 tries, even for the right code', async () => {
    const { userGuid, code } = await codeFor(await newMember());
    const wrong = code === '999999' ? '999998' : '999999';
    const details: string[] = [];
    for (let i = 0; i < 5; i++) details.push((await validate({ userGuid, validationCode: wrong }).expect(401)).body.detail);
    expect(details.at(-1)).toBe('The code is wrong and has no tries left. Request a new one.');
    expect((await validate({ userGuid, validationCode: code }).expect(401)).body.code).toBe('validation_code_expired');
  });

  it('should let exactly one of many simultaneous validations of the right code win', async () => {
    const { userGuid, code } = await codeFor(await newMember());
    const results = await Promise.all(Array.from({ length: 10 }, () => validate({ userGuid, validationCode: code })));
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
    expect(results.filter((res) => res.status === 401).map((res) => res.body.code)).toEqual(Array(9).fill('validation_code_expired'));
  });

  it('should count simultaneous wrong guesses exactly: 5 tries per code, no more', async () => {
    const { userGuid, code } = await codeFor(await newMember());
    const wrong = code === '123123' ? '321321' : '123123';
    const results = await Promise.all(Array.from({ length: 12 }, () => validate({ userGuid, validationCode: wrong })));
    expect(results.map((res) => res.body.code).sort()).toEqual(
      [...Array(5).fill('invalid_validation_code'), ...Array(7).fill('validation_code_expired')].sort(),
    );
  });

  it('should send at most one code per 30 s, and a resent code replaces the old one', async () => {
    const user = await newMember();
    const first = await codeFor(user);
    const sent = smtp.messages.length;
    e2e.clock.advance(10_000);
    const throttled = await askForCode({ email: user.email }).expect(429);
    expect(throttled.body.code).toBe('rate_limit_exceeded');
    expect(throttled.headers['retry-after']).toBe('20');
    expect(smtp.messages).toHaveLength(sent);

    e2e.clock.advance(20_000);
    const second = await codeFor(user);
    expect(second.userGuid).toBe(first.userGuid);
    if (second.code !== first.code) {
      expect((await validate({ userGuid: first.userGuid, validationCode: first.code }).expect(401)).body.code).toBe(
        'invalid_validation_code',
      );
    }
    await validate({ userGuid: second.userGuid, validationCode: second.code }).expect(200);
  });

  it('should answer an unknown e-mail or phone like a known one: same shape, a stable userGuid, nothing sent', async () => {
    const sent = smtp.messages.length;
    const first = await askForCode({ email: 'nobody@example.com' }).expect(200);
    expect(Object.keys(first.body).sort()).toEqual(['userGuid', 'validationCodeValidUntilUtc']);
    expect(first.body.userGuid).toMatch(UUID);
    expect(first.body.validationCodeValidUntilUtc).toBe(new Date(e2e.clock.nowMs() + 300_000).toISOString().slice(0, -1));

    // Throttled like a real user, then the same userGuid again.
    expect((await askForCode({ email: 'NOBODY@example.com' }).expect(429)).body.code).toBe('rate_limit_exceeded');
    e2e.clock.advance(30_000);
    const again = await askForCode({ email: 'nobody@example.com' }).expect(200);
    expect(again.body.userGuid).toBe(first.body.userGuid);
    expect(smtp.messages).toHaveLength(sent);

    // Its tries run out like a real user's; no code ever matches.
    for (let i = 0; i < 5; i++) {
      expect((await validate({ userGuid: first.body.userGuid, validationCode: String(i).padStart(6, '0') }).expect(401)).body.code).toBe(
        'invalid_validation_code',
      );
    }
    expect((await validate({ userGuid: first.body.userGuid, validationCode: '000000' }).expect(401)).body.code).toBe(
      'validation_code_expired',
    );

    const phone = await askForCode({ e164MobilePhoneNumber: '+46700000001' });
    expectValidationProblem(phone);
    expect(phone.body.errors).toEqual([{ pointer: '/email', detail: 'email is required: this service sends codes by e-mail only' }]);
  });

  it('should treat a contact of another team as unknown, and refuse another team validating this one', async () => {
    const user = await newMember();
    const other = await createTeamWithKey(e2e.app, { scopes: ['otp'] });
    const sent = smtp.messages.length;
    const asked = await askForCode({ email: user.email }, other.key).expect(200);
    expect(asked.body.userGuid).not.toBe(user.id);
    expect(smtp.messages).toHaveLength(sent);

    const { userGuid, code } = await codeFor(user);
    expect((await validate({ userGuid, validationCode: code }, other.key).expect(401)).body.code).toBe('validation_code_expired');
    await validate({ userGuid, validationCode: code }).expect(200);
  });

  /** Ten wrong codes across two codes; answers the Retry-After of the lockout they cause, 30 s later. */
  const lockOut = async (user: User): Promise<number> => {
    for (let round = 0; round < 2; round++) {
      const { userGuid, code } = await codeFor(user);
      const wrong = code === '555555' ? '555556' : '555555';
      for (let i = 0; i < 5; i++) await validate({ userGuid, validationCode: wrong }).expect(401);
      e2e.clock.advance(30_000);
    }
    return Number((await askForCode({ email: user.email }).expect(429)).headers['retry-after']);
  };

  it('should lock a user out after 10 wrong codes across codes, for 15 minutes', async () => {
    const user = await newMember();
    expect(await lockOut(user)).toBe(900 - 30);
    e2e.clock.advance(870_000);
    const { userGuid, code } = await codeFor(user);
    await validate({ userGuid, validationCode: code }).expect(200);
  });

  it('should double the lockout on each further lockout within 24 h, and start again at 15 minutes after a quiet day', async () => {
    const user = await newMember();
    expect(await lockOut(user)).toBe(15 * 60 - 30);
    e2e.clock.advance(15 * 60_000);
    expect(await lockOut(user)).toBe(30 * 60 - 30);
    e2e.clock.advance(30 * 60_000);
    expect(await lockOut(user)).toBe(60 * 60 - 30);
    // The purge job runs meanwhile: it must not forget a lockout younger than a day.
    await e2e.app.get(OtpService).purgeExpired();
    e2e.clock.advance(60 * 60_000);
    expect(await lockOut(user)).toBe(120 * 60 - 30);
    e2e.clock.advance(25 * 60 * 60_000);
    await e2e.app.get(OtpService).purgeExpired();
    expect(await lockOut(user)).toBe(15 * 60 - 30);
  });

  it('should answer 502 otp_delivery_failed when the mail server refuses, and let the user retry at once', async () => {
    const user = await newMember();
    smtp.rejectRecipients(true);
    try {
      const failed = await askForCode({ email: user.email }).expect(502);
      expect(failed.body).toMatchObject({ code: 'otp_delivery_failed', detail: 'The code could not be sent; try again shortly.' });
      expect(JSON.stringify(failed.body)).not.toContain(user.email!);
    } finally {
      smtp.rejectRecipients(false);
    }
    const { userGuid, code } = await codeFor(user);
    await validate({ userGuid, validationCode: code }).expect(200);
  });

  it.each([
    [{}, ['/e164MobilePhoneNumber']],
    [{ email: 'not-an-address' }, ['/email']],
    [{ e164MobilePhoneNumber: '0701234567' }, ['/e164MobilePhoneNumber']],
    [{ e164MobilePhoneNumber: null }, ['/e164MobilePhoneNumber']],
    [{ email: null }, ['/e164MobilePhoneNumber']],
    [{ email: 'a@example.com', extra: 1 }, ['/extra']],
  ])('should answer 400 to login-otp %j', async (body, pointers) => {
    expect(expectValidationProblem(await askForCode(body))).toEqual(pointers);
  });

  it.each([
    [{}, ['/userGuid', '/validationCode']],
    [{ userGuid: 'abc', validationCode: '123456' }, ['/userGuid']],
    [{ userGuid: '7f1d2f0a-4b7c-4a7e-9b1e-2d7c5c1e0a11', validationCode: '12345' }, ['/validationCode']],
    [{ userGuid: '7f1d2f0a-4b7c-4a7e-9b1e-2d7c5c1e0a11', validationCode: 123456 }, ['/validationCode']],
  ])('should answer 400 to login-otp-validate %j', async (body, pointers) => {
    expect(expectValidationProblem(await validate(body))).toEqual(pointers);
  });

  it('should answer an unknown userGuid with validation_code_expired', async () => {
    const res = await validate({ userGuid: '7f1d2f0a-4b7c-4a7e-9b1e-2d7c5c1e0a11', validationCode: '123456' }).expect(401);
    expect(res.body.code).toBe('validation_code_expired');
  });

  it('should open the OTP routes only to API keys with scope otp', async () => {
    const { key } = await createTeamWithKey(e2e.app, { scopes: ['sessions:read', 'sessions:write'] });
    const res = await askForCode({ email: 'a@example.com' }, key).expect(403);
    expect(res.body).toMatchObject({ code: 'insufficient_scope', scopes: ['otp'] });
    expect((await e2e.http.post('/ask_for_approval/login-otp').send({ email: 'a@example.com' }).expect(401)).body.code).toBe(
      'missing_token',
    );
  });
});
