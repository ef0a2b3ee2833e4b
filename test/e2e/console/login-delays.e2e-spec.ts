import type { Response } from 'supertest';
import { runCli } from '../../../src/cli/run-cli.js';
import type { User } from '../../../src/users/user.entity.js';
import { UsersService } from '../../../src/users/users.service.js';
import { withEnv } from '../../support/create-test-app.js';
import { useE2eApp } from '../../support/e2e.js';
import { expectProblem } from '../../support/problem.js';
import { NO_IP_BLOCKING } from '../../support/protection-backends.js';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.js';
import { waitUntil } from '../../support/webhooks.js';

const CONSOLE = { 'x-eidgw-console': '1' };
const ATTACKER = '198.51.100.7';
const MEMBER_ADDRESS = '203.0.113.20';

// docs/console.md, "Wrong codes": progressive delays per user and client address, no lockout, the
// same answers for members and strangers, and the operator's `users unlock`.
describe('Console login: wrong codes', () => {
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
      TRUST_PROXY: '127.0.0.1,::1',
    }),
    withKey: true,
    freezeClock: true,
  });
  afterAll(async () => {
    await smtp?.close();
  });

  const from = (address: string) => ({ ...CONSOLE, 'x-forwarded-for': address });
  const askForCode = (email: string, address = ATTACKER) => e2e.http.post('/console/login/code').set(from(address)).send({ email });
  const validate = (userGuid: string, validationCode: string, address = ATTACKER) =>
    e2e.http.post('/console/login/validate').set(from(address)).send({ userGuid, validationCode });
  const lastCode = () => /login code is (\d{6})\./.exec(smtp.messages.at(-1)!.raw)![1];
  const newMember = (): Promise<User> => {
    members += 1;
    return e2e.app.get(UsersService).create({ teamId: e2e.team.id, email: `delays${members}@example.com` });
  };
  /** What an answer tells a stranger: status, code, detail and Retry-After. */
  const seen = (res: Response) => ({
    status: res.status,
    code: res.body.code,
    detail: res.body.detail,
    retryAfter: res.headers['retry-after'],
  });

  /** Eight wrong codes from the attacker's address, a new code asked for after each five; every answer as seen. */
  async function guessEight(email: string): Promise<unknown[]> {
    const answers: unknown[] = [];
    const asked = await askForCode(email);
    answers.push({ status: asked.status });
    const userGuid = asked.body.userGuid as string;
    for (let i = 0; i < 5; i++) answers.push(seen(await validate(userGuid, '000000')));
    e2e.clock.advance(30_000);
    answers.push({ status: (await askForCode(email)).status });
    answers.push(seen(await validate(userGuid, '000000')));
    // The sixth wrong code: the next try from this address waits 1 s, then 2 s.
    answers.push(seen(await validate(userGuid, '000000')));
    e2e.clock.advance(1_000);
    answers.push(seen(await validate(userGuid, '000000')));
    answers.push(seen(await validate(userGuid, '000000')));
    return answers;
  }

  it('should slow down the guessing address progressively, while the member logs in from elsewhere', async () => {
    const member = await newMember();
    const answers = await guessEight(member.email!);
    expect(answers.slice(8)).toEqual([
      { status: 429, code: 'rate_limit_exceeded', detail: 'Too many wrong codes from this address; try again in 1 s.', retryAfter: '1' },
      { status: 401, code: 'invalid_validation_code', detail: expect.any(String), retryAfter: undefined },
      { status: 429, code: 'rate_limit_exceeded', detail: 'Too many wrong codes from this address; try again in 2 s.', retryAfter: '2' },
    ]);
    // Nothing locks the member: from their own address, once the resend interval has passed, a new code is sent and works.
    e2e.clock.advance(30_000);
    await askForCode(member.email!, MEMBER_ADDRESS).expect(200);
    await validate(member.id, lastCode(), MEMBER_ADDRESS).expect(200);
  });

  /** A message's text with quoted-printable soft line breaks and escapes undone. */
  const textOf = (raw: string) =>
    raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

  /** Twenty-one wrong codes, each from an address of its own, then a try from yet another; every answer as seen. */
  async function guessFromEverywhere(email: string, network: string): Promise<unknown[]> {
    const answers: unknown[] = [];
    let userGuid = '';
    for (let i = 0; i < 21; i++) {
      const address = `${network}.${i + 1}`;
      // Five tries per code: a new one (after the resend interval) every five.
      if (i % 5 === 0) {
        e2e.clock.advance(30_000);
        const asked = await askForCode(email, address);
        answers.push({ status: asked.status });
        userGuid = asked.body.userGuid as string;
      }
      answers.push(seen(await validate(userGuid, '000000', address)));
    }
    answers.push(seen(await validate(userGuid, '000000', `${network}.200`)));
    return answers;
  }

  // docs/security.md, round 4: delays per address only let guesses spread over addresses run at ~10 a minute.
  it('should let every address together spend a daily budget of wrong codes, then make each try wait an hour and tell the member', async () => {
    const member = await newMember();
    const mailsBefore = smtp.messages.length;
    const answers = await guessFromEverywhere(member.email!, '198.18.1');
    expect(answers.filter((answer) => (answer as { status: number }).status === 401)).toHaveLength(21);
    expect(answers.at(-1)).toEqual({
      status: 429,
      code: 'rate_limit_exceeded',
      detail: 'Too many wrong codes for this account today; try again in 3600 s.',
      retryAfter: '3600',
    });
    // The member is told once, without a code, and each code's message named the address that asked for it.
    const mails = () => smtp.messages.slice(mailsBefore).map((mail) => textOf(mail.raw));
    const noticesOf = () => mails().filter((text) => text.includes('wrong eid-gateway console login codes were entered for your account'));
    // Sent after the answer, so that a member's answers take no longer than a stranger's.
    const notices = await waitUntil(async () => (noticesOf().length > 0 ? noticesOf() : undefined), 'the notice');
    expect(notices).toHaveLength(1);
    expect(notices[0]).not.toMatch(/\b\d{6}\b/);
    expect(mails().find((text) => text.includes('login code is'))).toContain('asked for at the team console from 198.18.1.1;');
    // The wait holds for the member's own address too, for an hour; then the member logs in.
    e2e.clock.advance(30_000);
    await askForCode(member.email!, MEMBER_ADDRESS).expect(200);
    expectProblem(await validate(member.id, lastCode(), MEMBER_ADDRESS), 429, 'rate_limit_exceeded');
    e2e.clock.advance(3600_000);
    await askForCode(member.email!, MEMBER_ADDRESS).expect(200);
    await validate(member.id, lastCode(), MEMBER_ADDRESS).expect(200);
  });

  it("should spend a stranger's budget exactly as a member's, and tell nobody", async () => {
    const member = await newMember();
    const stranger = await guessFromEverywhere('nobody-either@example.com', '198.18.2');
    expect(smtp.messages.filter((mail) => mail.to.includes('nobody-either@example.com'))).toEqual([]);
    expect(stranger).toEqual(await guessFromEverywhere(member.email!, '198.18.3'));
  });

  it("should answer a stranger's e-mail exactly as a member's, through wrong codes and delays", async () => {
    const member = await newMember();
    const stranger = await guessEight('nobody-at-all@example.com');
    e2e.clock.advance(30_000);
    expect(stranger).toEqual(await guessEight(member.email!));
  });

  it('should let the operator lift the delays and the OTP lockout with `users unlock`', async () => {
    const member = await newMember();
    await guessEight(member.email!);
    expectProblem(await validate(member.id, '000000'), 429, 'rate_limit_exceeded');
    const unlocked = await withEnv({ ...e2e.database.env, LOG_LEVEL: 'silent' }, () => runCli(['users', 'unlock', '--user', member.id]));
    expect(unlocked).toEqual({ exitCode: 0, output: { userId: member.id, unlocked: true } });
    expectProblem(await validate(member.id, '000000'), 401, 'invalid_validation_code');
    const unknown = await withEnv({ ...e2e.database.env, LOG_LEVEL: 'silent' }, () =>
      runCli(['users', 'unlock', '--user', '00000000-0000-4000-8000-000000000000']),
    );
    expect(unknown.exitCode).not.toBe(0);
  });
});
