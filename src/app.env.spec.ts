import { problemsOf } from '../test/support/env-problems.js';
import { validatedEnv, validateEnv } from './app.env.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
// What production refuses (docs/security.md), each on top of an otherwise complete production configuration.
const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://db/x',
  DATA_ENCRYPTION_KEY: KEY,
  KIOSK_TOKEN_SECRET: KEY,
  PROVIDERS: 'simulator',
  PUBLIC_BASE_URL: 'https://eid.example',
  OTP_DELIVERY: 'smtp',
  SMTP_URL: 'smtps://mail',
};
const PRODUCTION_REFUSALS: Array<[Record<string, string | undefined>, string]> = [
  [{ DATA_ENCRYPTION_KEY: undefined }, 'DATA_ENCRYPTION_KEY'],
  [{ KIOSK_TOKEN_SECRET: undefined }, 'KIOSK_TOKEN_SECRET'],
  [{ DATABASE_URL: undefined }, 'DATABASE_URL'],
  // a 44-character passphrase that Node's lenient base64 decoder reads as 32 bytes
  [{ DATA_ENCRYPTION_KEY: 'correct-horse-battery-staple-my-secret-keys!' }, 'DATA_ENCRYPTION_KEY'],
  [{ KIOSK_TOKEN_SECRET: 'correct-horse-battery-staple-my-secret-keys!' }, 'KIOSK_TOKEN_SECRET'],
  // not canonical: the last character carries bits the 32 bytes do not have
  [{ KIOSK_TOKEN_SECRET: `${KEY.slice(0, 42)}x=` }, 'KIOSK_TOKEN_SECRET'],
  [{ DATA_ENCRYPTION_KEY: Buffer.alloc(48, 1).toString('base64') }, 'DATA_ENCRYPTION_KEY'],
  [{ PROVIDERS: undefined }, 'PROVIDERS'],
  [{ PUBLIC_BASE_URL: undefined }, 'PUBLIC_BASE_URL'],
  [{ PUBLIC_BASE_URL: 'http://eid.example' }, 'PUBLIC_BASE_URL'],
  [{ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'],
  [{ OTP_DELIVERY: 'log' }, 'OTP_DELIVERY'],
  [{ OTP_DELIVERY: 'http', OTP_HTTP_URL: 'http://sms.example/send' }, 'OTP_HTTP_URL'],
  [{ SMTP_URL: 'smtp://mail' }, 'SMTP_URL'],
];

describe(validateEnv.name, () => {
  it('should give the documented defaults for an empty environment', () => {
    const env = validateEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      PROVIDERS: ['simulator'],
      OTP_DELIVERY: 'log',
      OTP_TTL: 300_000,
      OTP_MAX_ATTEMPTS: 5,
      OTP_RESEND_INTERVAL: 30_000,
      JWT_TTL: 3_600_000,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
      WEBHOOK_RETRY_SCHEDULE: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      WEBHOOK_TIMEOUT: 15_000,
      TRUST_PROXY: [],
      SESSION_PII_RETENTION: 3_600_000,
      SIMULATOR_START_TIMEOUT: 30_000,
      SESSION_TTL: 180_000,
      REDIS_KEY_PREFIX: 'eidgw:',
      IP_BLOCK_THRESHOLD: 10,
      IP_BLOCK_WINDOW: 900_000,
      IP_BLOCK_DURATION: 900_000,
      IP_BLOCK_EXEMPT: [],
      WEBHOOK_ENDPOINT_CONCURRENCY: 4,
    });
  });

  it('should read the kiosk frame ancestors as a list', () => {
    expect(validateEnv({}).KIOSK_FRAME_ANCESTORS).toEqual(["'none'"]);
    expect(validateEnv({ KIOSK_FRAME_ANCESTORS: "'self' https://rp.example, https://*.rp.example:8443" }).KIOSK_FRAME_ANCESTORS).toEqual([
      "'self'",
      'https://rp.example',
      'https://*.rp.example:8443',
    ]);
  });

  it('should read durations, lists and flags', () => {
    const env = validateEnv({
      SESSION_TTL: '90',
      WEBHOOK_RETRY_SCHEDULE: '500ms,1s',
      TRUST_PROXY: '10.0.0.0/8, 192.168.1.1,::1',
      PROVIDERS: 'simulator',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    expect(env.SESSION_TTL).toBe(90_000);
    expect(env.WEBHOOK_RETRY_SCHEDULE).toEqual([500, 1000]);
    expect(env.TRUST_PROXY).toEqual(['10.0.0.0/8', '192.168.1.1', '::1']);
    expect(env.PROVIDERS).toEqual(['simulator']);
    expect(env.WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(true);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PROVIDERS: 'simulator,MitID' }, 'PROVIDERS'],
    [{ SESSION_TTL: '3 minutes' }, 'SESSION_TTL'],
    [{ WEBHOOK_RETRY_SCHEDULE: '5s,,5m' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'proxy.local' }, 'TRUST_PROXY'],
    [{ IP_BLOCK_EXEMPT: '203.0.113.0/24,egress.example' }, 'IP_BLOCK_EXEMPT'],
    [{ WEBHOOK_ENDPOINT_CONCURRENCY: '0' }, 'WEBHOOK_ENDPOINT_CONCURRENCY'],
    [{ DATA_ENCRYPTION_KEY: 'c2hvcnQ=' }, 'DATA_ENCRYPTION_KEY'],
    [{ OTP_DELIVERY: 'smtp' }, 'SMTP_URL'],
    [{ OTP_DELIVERY: 'http' }, 'OTP_HTTP_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' }, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'],
    [{ WEB_CONCURRENCY: '2' }, 'WEB_CONCURRENCY'],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x', DATA_ENCRYPTION_KEY: KEY }, 'OTP_DELIVERY'],
    [{ NODE_ENV: 'production', OTP_DELIVERY: 'smtp', SMTP_URL: 'smtp://mail' }, 'DATA_ENCRYPTION_KEY'],
    [{ NODE_ENV: 'production', OTP_DELIVERY: 'smtp', SMTP_URL: 'smtp://mail' }, 'KIOSK_TOKEN_SECRET'],
    [{ KIOSK_TOKEN_SECRET: 'c2hvcnQ=' }, 'KIOSK_TOKEN_SECRET'],
    [{ KIOSK_FRAME_ANCESTORS: 'rp.example' }, 'KIOSK_FRAME_ANCESTORS'],
    [{ KIOSK_FRAME_ANCESTORS: "'none' https://rp.example" }, 'KIOSK_FRAME_ANCESTORS'],
    [{ KIOSK_FRAME_ANCESTORS: 'https://rp.example;script-src *' }, 'KIOSK_FRAME_ANCESTORS'],
  ])('should refuse %j naming %s', (env, variable) => {
    const problems = problemsOf(env);
    expect(problems.some((p) => p.startsWith(`${variable} `))).toBe(true);
  });

  it('should report every bad variable at once and never echo a value', () => {
    const secret = 'not-base64-but-secret!!';
    const problems = problemsOf({ PORT: 'x', DATA_ENCRYPTION_KEY: secret });
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).not.toContain(secret);
  });

  it('should accept a complete production configuration, STARTTLS included', () => {
    expect(() => validateEnv(PRODUCTION)).not.toThrow();
    expect(() => validateEnv({ ...PRODUCTION, SMTP_URL: 'smtp://mail:587?requireTLS=true' })).not.toThrow();
  });

  it.each(PRODUCTION_REFUSALS)('should refuse production with %j, naming %s', (change, variable) => {
    const problems = problemsOf({ ...PRODUCTION, ...change });
    expect(problems.filter((p) => p.startsWith(`${variable} `))).toHaveLength(1);
  });
});

describe(validatedEnv.name, () => {
  it('should validate the environment once for every namespace, and again when it changes', () => {
    const first = validatedEnv();
    expect(validatedEnv()).toBe(first);
    process.env.SESSION_TTL = '4m';
    try {
      expect(validatedEnv()).not.toBe(first);
      expect(validatedEnv().SESSION_TTL).toBe(240_000);
    } finally {
      delete process.env.SESSION_TTL;
    }
  });
});
