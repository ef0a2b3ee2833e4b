import { randomBytes } from 'node:crypto';
import { buildService, ServiceProcess } from '../../support/service-process.js';

// docs/security.md, "Production refuses to start": the built service, started as the Dockerfile starts it
// (`node dist/service/main.js` with NODE_ENV=production), exits naming the variable for each unsafe setting.
const KEY = randomBytes(32).toString('base64');
const PRODUCTION: Record<string, string> = {
  NODE_ENV: 'production',
  // Never reached: validation comes first; port 9 (discard) answers nothing should it be.
  DATABASE_URL: 'postgres://postgres@127.0.0.1:9/never',
  DATA_ENCRYPTION_KEY: KEY,
  KIOSK_TOKEN_SECRET: KEY,
  PROVIDERS: 'simulator',
  PUBLIC_BASE_URL: 'https://eid.example',
  OTP_DELIVERY: 'smtp',
  SMTP_URL: 'smtps://mail.example',
};

const REFUSALS: Array<[Record<string, string | undefined>, string]> = [
  [{ DATA_ENCRYPTION_KEY: undefined }, 'DATA_ENCRYPTION_KEY'],
  [{ KIOSK_TOKEN_SECRET: undefined }, 'KIOSK_TOKEN_SECRET'],
  [{ DATABASE_URL: undefined }, 'DATABASE_URL'],
  [{ DATA_ENCRYPTION_KEY: 'correct-horse-battery-staple-my-secret-keys!' }, 'DATA_ENCRYPTION_KEY'],
  [{ KIOSK_TOKEN_SECRET: `${KEY.slice(0, 42)}x=` }, 'KIOSK_TOKEN_SECRET'],
  [{ PROVIDERS: undefined }, 'PROVIDERS'],
  [{ PUBLIC_BASE_URL: undefined }, 'PUBLIC_BASE_URL'],
  [{ PUBLIC_BASE_URL: 'http://eid.example' }, 'PUBLIC_BASE_URL'],
  [{ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'],
  [{ OTP_DELIVERY: 'log' }, 'OTP_DELIVERY'],
  [{ OTP_DELIVERY: 'http', OTP_HTTP_URL: 'http://sms.example/send' }, 'OTP_HTTP_URL'],
  [{ BANKID_URL: 'http://bankid.example/rp/v6.0' }, 'BANKID_URL'],
  [{ SMTP_URL: 'smtp://mail.example' }, 'SMTP_URL'],
];

describe('Production configuration', () => {
  // Neither useE2eApp nor useTestDatabase: a built service in a child process, refused before it opens a database.
  let service: Awaited<ReturnType<typeof buildService>>;

  beforeAll(async () => {
    service = await buildService();
  }, 60_000);

  afterAll(async () => {
    await service?.remove();
  });

  it.each(REFUSALS)(
    'should refuse to start with %j, naming %s',
    async (change, variable) => {
      const env = Object.fromEntries(
        Object.entries({ ...PRODUCTION, ...change }).filter((entry): entry is [string, string] => entry[1] !== undefined),
      );
      const failure = await ServiceProcess.start(service.main, env, 60_000).then(
        async (started) => {
          await started.kill();
          return 'started';
        },
        (error: Error) => error.message,
      );
      expect(failure).toContain('exit code 1');
      expect(failure).toMatch(new RegExp(`^\\s+- ${variable} `, 'm'));
      // Generous: loading the service's modules takes seconds when the whole suite runs beside it.
    },
    90_000,
  );
});
