import { DataSource } from 'typeorm';
import type { User } from '../../../src/users/user.entity.js';
import { UsersService } from '../../../src/users/users.service.js';
import { useE2eApp } from '../../support/e2e.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { expectProblem } from '../../support/problem.js';
import { NO_IP_BLOCKING } from '../../support/protection-backends.js';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { waitUntil } from '../../support/webhooks.js';

const COOKIE = '__Host-eidgw-console';
const CONSOLE = { 'x-eidgw-console': '1' };

describe('Console login (OTP without an API key, session cookie, CSRF check)', () => {
  let smtp: SmtpReceiver;
  let members = 0;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  const e2e = useE2eApp({
    env: () => ({
      ...NO_IP_BLOCKING,
      OTP_DELIVERY: 'smtp',
      SMTP_URL: smtp.url,
      CONSOLE_LOGIN_PER_MINUTE: '1000',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    }),
    withKey: true,
    freezeClock: true,
  });
  afterAll(async () => {
    await smtp?.close();
  });

  const askForCode = (body: object, headers: Record<string, string> = CONSOLE) =>
    e2e.http.post('/console/login/code').set(headers).send(body);
  const validate = (body: object, headers: Record<string, string> = CONSOLE) =>
    e2e.http.post('/console/login/validate').set(headers).send(body);
  const codeIn = (mail: { raw: string }) => /login code is (\d{6})\./.exec(mail.raw)![1];

  async function newMember(): Promise<User> {
    members += 1;
    return e2e.app.get(UsersService).create({ teamId: e2e.team.id, email: `console${members}@example.com` });
  }

  /** Logs the member in through the console routes; answers the cookie pair `name=token`. */
  async function logIn(user: User): Promise<string> {
    const asked = await askForCode({ email: user.email }).expect(200);
    const answer = await validate({ userGuid: asked.body.userGuid, validationCode: codeIn(smtp.messages.at(-1)!) }).expect(200);
    const setCookie = String(answer.headers['set-cookie']);
    return setCookie.split(';')[0];
  }

  it('should log in without an API key, hold the token only in an HttpOnly Secure SameSite=Strict cookie, and open the management API with it', async () => {
    const user = await newMember();
    const asked = await askForCode({ email: user.email!.toUpperCase() }).expect(200);
    expect(asked.body).toEqual({ userGuid: user.id, validationCodeValidUntilUtc: expect.any(String) });
    const answer = await validate({ userGuid: user.id, validationCode: codeIn(smtp.messages.at(-1)!) }).expect(200);
    expect(answer.body).toEqual({ userGuid: user.id, tokenExpiresAtUtc: expect.any(String) });
    expect(answer.headers['set-cookie']).toEqual([
      expect.stringMatching(new RegExp(`^${COOKIE}=[\\w-]+\\.[\\w-]+\\.[\\w-]+; Path=/; Max-Age=3600; HttpOnly; Secure; SameSite=Strict$`)),
    ]);
    const cookie = String(answer.headers['set-cookie']).split(';')[0];

    const me = await e2e.http.get('/api/v1/me').set('cookie', cookie).set(CONSOLE).expect(200);
    expect(me.body.user.id).toBe(user.id);
    const created = await e2e.http
      .post('/api/v1/api-keys')
      .set('cookie', cookie)
      .set(CONSOLE)
      .send({ name: 'from the console' })
      .expect(201);
    expect(created.body.key).toMatch(/^eidk_test_/);
  });

  it('should refuse a cookie call without the console header (CSRF) and change nothing', async () => {
    const cookie = await logIn(await newMember());
    const refused = await e2e.http.post('/api/v1/api-keys').set('cookie', cookie).send({ name: 'forged' });
    expectProblem(refused, 403, 'csrf_check_failed');
    await e2e.http.get('/api/v1/me').set('cookie', cookie).expect(403);
    const keys = await e2e.http.get('/api/v1/api-keys').set('cookie', cookie).set(CONSOLE).expect(200);
    expect(keys.body.map((k: { name: string }) => k.name)).not.toContain('forged');
    // Login routes need the header too: no cross-site login into an attacker's account.
    expectProblem(await askForCode({ email: 'console1@example.com' }, {}), 403, 'csrf_check_failed');
  });

  it('should not open public API endpoints with the cookie', async () => {
    const cookie = await logIn(await newMember());
    const answer = await e2e.http.post('/api/v1/auth/simulator/start').set('cookie', cookie).set(CONSOLE).send({ endUserIp: '192.0.2.1' });
    expectProblem(answer, 401, 'missing_token');
  });

  it('should answer an unknown contact as a known one, send it nothing, and throttle it the same', async () => {
    const before = smtp.messages.length;
    const unknown = await askForCode({ email: 'nobody@example.com' }).expect(200);
    expect(unknown.body).toEqual({ userGuid: expect.any(String), validationCodeValidUntilUtc: expect.any(String) });
    expect(smtp.messages).toHaveLength(before);
    expect((await askForCode({ email: 'nobody@example.com' }).expect(429)).headers['retry-after']).toBe('30');
    expectProblem(await askForCode({ email: 'nobody@example.com' }), 429, 'rate_limit_exceeded');
    expectProblem(await validate({ userGuid: unknown.body.userGuid, validationCode: '123456' }), 401, 'invalid_validation_code');

    const user = await newMember();
    await askForCode({ email: user.email }).expect(200);
    expect((await askForCode({ email: user.email }).expect(429)).headers['retry-after']).toBe('30');
  });

  it('should apply the OTP rules: wrong codes count, five tries per code, then the code is spent', async () => {
    const user = await newMember();
    await askForCode({ email: user.email }).expect(200);
    const code = codeIn(smtp.messages.at(-1)!);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      expectProblem(await validate({ userGuid: user.id, validationCode: wrong }), 401, 'invalid_validation_code');
    }
    expectProblem(await validate({ userGuid: user.id, validationCode: code }), 401, 'validation_code_expired');
    // A new code after the resend interval works.
    e2e.clock.advance(30_000);
    await askForCode({ email: user.email }).expect(200);
    await validate({ userGuid: user.id, validationCode: codeIn(smtp.messages.at(-1)!) }).expect(200);
  });

  it("should keep another team's API key from validating a code the console sent to a member", async () => {
    const user = await newMember();
    const otherTeam = await createTeamWithKey(e2e.app, { scopes: ['otp'] });
    await e2e.http.post('/ask_for_approval/login-otp').set('x-api-key', otherTeam.key).send({ email: user.email }).expect(200);
    // The other team has no such member: nothing was sent.
    const before = smtp.messages.length;
    e2e.clock.advance(30_000);
    await askForCode({ email: user.email }).expect(200);
    expect(smtp.messages).toHaveLength(before + 1);
    await e2e.http
      .post('/ask_for_approval/login-otp-validate')
      .set('x-api-key', otherTeam.key)
      .send({ userGuid: user.id, validationCode: codeIn(smtp.messages.at(-1)!) })
      .expect(401);
  });

  it('should serve the page and its hashed files under a strict CSP, and answer no CORS preflight', async () => {
    const page = await e2e.http.get('/console').expect(200);
    expect((await e2e.http.get('/console/').expect(301)).headers.location).toBe('/console');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|style=/);
    const [script] = /\/console\/assets\/[\w-]+\.js/.exec(page.text)!;
    const asset = await e2e.http.get(script).expect(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    await e2e.http.get('/console/assets/nothing.js').expect(404);

    const preflight = await e2e.http
      .options('/api/v1/api-keys')
      .set('origin', 'https://evil.example')
      .set('access-control-request-method', 'POST')
      .set('access-control-request-headers', 'x-eidgw-console');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('should not lock a member out after ten wrong codes: new codes are still sent (wrong codes slow down their address instead)', async () => {
    const user = await newMember();
    for (let round = 0; round < 2; round++) {
      await askForCode({ email: user.email }).expect(200);
      const code = codeIn(smtp.messages.at(-1)!);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) {
        await validate({ userGuid: user.id, validationCode: wrong }).expect(401);
        // Past the growing delay of this address (1 s, 2 s, … after the fifth).
        e2e.clock.advance(30_000);
      }
    }
    const before = smtp.messages.length;
    await askForCode({ email: user.email }).expect(200);
    expect(smtp.messages).toHaveLength(before + 1);
  });

  it('should refuse bad input with problem details', async () => {
    const answer = await askForCode({}).expect(400);
    expect(answer.headers['content-type']).toContain('application/problem+json');
    await validate({ userGuid: 'x', validationCode: '12' }).expect(400);
  });

  it('should log out by revoking the token and clearing the cookie', async () => {
    const cookie = await logIn(await newMember());
    const other = await logIn(await newMember());
    expectProblem(await e2e.http.post('/console/logout').set('cookie', cookie), 403, 'csrf_check_failed');
    await e2e.http.get('/api/v1/me').set('cookie', cookie).set(CONSOLE).expect(200);
    const answer = await e2e.http.post('/console/logout').set('cookie', cookie).set(CONSOLE).expect(204);
    expect(answer.headers['set-cookie']).toEqual([`${COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Strict`]);
    // A copy of the cookie taken before the logout is worth nothing after it; another member's is untouched.
    expectProblem(await e2e.http.get('/api/v1/me').set('cookie', cookie).set(CONSOLE), 401, 'invalid_token');
    await e2e.http.get('/api/v1/me').set('cookie', other).set(CONSOLE).expect(200);
    // Logging out again, or without a cookie, still clears it.
    await e2e.http.post('/console/logout').set('cookie', cookie).set(CONSOLE).expect(204);
    await e2e.http.post('/console/logout').set(CONSOLE).expect(204);
  });

  it('should send a webhook.test message to an endpoint, signed and logged like any other', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const cookie = await logIn(await newMember());
      const endpoint = await e2e.http
        .post('/api/v1/webhook-endpoints')
        .set('cookie', cookie)
        .set(CONSOLE)
        .send({ url: receiver.url(), eventTypes: ['auth.session.completed'] })
        .expect(201);
      const queued = await e2e.http
        .post(`/api/v1/webhook-endpoints/${endpoint.body.id}/test`)
        .set('cookie', cookie)
        .set(CONSOLE)
        .expect(202);
      expect(queued.body).toEqual({ deliveryId: expect.any(String), messageId: expect.stringMatching(/^msg_/) });
      const received = await waitUntil(async () => receiver.requests[0], 'the test event');
      expect(JSON.parse(received.body)).toEqual({
        type: 'webhook.test',
        timestamp: expect.any(String),
        data: { endpointId: endpoint.body.id, environment: 'test' },
      });
      const log = await waitUntil(async () => {
        const page = await e2e.http
          .post('/api/v1/webhook-deliveries')
          .set('cookie', cookie)
          .set(CONSOLE)
          .send({ startRow: 0, endRow: 10 })
          .expect(200);
        return page.body.rows.find(
          (row: { id: string; status: string }) => row.id === queued.body.deliveryId && row.status === 'delivered',
        );
      }, 'the delivered test in the log');
      expect(log).toMatchObject({ eventType: 'webhook.test', attempts: [expect.objectContaining({ statusCode: 200 })] });
      expect(log.sessionId).toBeUndefined();

      await e2e.http
        .patch(`/api/v1/webhook-endpoints/${endpoint.body.id}`)
        .set('cookie', cookie)
        .set(CONSOLE)
        .send({ enabled: false })
        .expect(200);
      expectProblem(
        await e2e.http.post(`/api/v1/webhook-endpoints/${endpoint.body.id}/test`).set('cookie', cookie).set(CONSOLE),
        409,
        'endpoint_disabled',
      );
    } finally {
      await receiver.close();
    }
  });
});

describe('Console login per-address limit', () => {
  const e2e = useE2eApp({ env: { ...NO_IP_BLOCKING, CONSOLE_LOGIN_PER_MINUTE: '3' } });

  it('should refuse a fourth login request in a minute from one address, then allow it in the next minute', async () => {
    e2e.clock.freeze();
    for (let i = 0; i < 3; i++)
      await e2e.http
        .post('/console/login/code')
        .set(CONSOLE)
        .send({ email: `a${i}@example.com` })
        .expect(200);
    const refused = await e2e.http.post('/console/login/code').set(CONSOLE).send({ email: 'a9@example.com' });
    expectProblem(refused, 429, 'rate_limit_exceeded');
    expect(refused.headers['retry-after']).toBe('60');
    e2e.clock.advance(60_000);
    await e2e.http.post('/console/login/code').set(CONSOLE).send({ email: 'a9@example.com' }).expect(200);
    const [{ count }] = await e2e.app.get(DataSource).query(`SELECT count(*)::int AS count FROM console_login_windows`);
    expect(count).toBe(1);
  });
});
