import { isIP } from 'node:net';
import { z } from 'zod';
import { duration, httpUrl } from './env-rules.js';
import { parseDuration } from './duration.js';

const booleanFlag = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .default('false')
  .transform((v) => v === 'true' || v === '1');

const cidrOrAddress = (entry: string): boolean => {
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
};

const commaList = z
  .string()
  .default('')
  .transform((text) =>
    text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

// Key material (DATA_ENCRYPTION_KEY, KIOSK_TOKEN_SECRET) is exactly 32 bytes in canonical base64: decoded and
// encoded again it must read the same, since Node's decoder skips what it does not know and would take a
// 44-character passphrase for a key (docs/security.md).
const isCanonicalKey = (text: string): boolean => {
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === 32 && bytes.toString('base64') === text;
};
const base64Key = z.string().refine(isCanonicalKey, 'must be 32 random bytes in canonical base64 (openssl rand -base64 32)').optional();
const encryptionKey = base64Key;
const kioskTokenSecret = base64Key;

// SMTP_URL carries TLS when it is smtps: or asks nodemailer for STARTTLS (`?requireTLS=true`).
const smtpWithTls = (url: string): boolean => url.startsWith('smtps:') || new URL(url).searchParams.get('requireTLS') === 'true';

// CSP frame-ancestors sources: 'none', 'self' or origins such as https://rp.example (docs/kiosk.md).
const frameAncestor = (entry: string): boolean =>
  entry === "'none'" || entry === "'self'" || /^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i.test(entry);

/**
 * The platform's variables. Each feature's fragment (the providers', the SAML front's, forward
 * authentication's policy) joins them at the application root, src/app.env.ts, which validates the whole.
 */
export const PLATFORM_ENV = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  /** Worker processes sharing the port (Node cluster); 1 runs the service in this process. */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  PUBLIC_BASE_URL: httpUrl.optional(),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, message: 'must be a postgres:// URL' }).optional(),
  // Each statement's deadline (docs/reliability.md): a database that hangs answers 503 within REQUEST_TIMEOUT.
  DATABASE_QUERY_TIMEOUT: duration('8s').refine((ms) => ms >= 100 && ms <= 600_000, 'must be between 100ms and 10m'),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PROVIDERS: z
    .string()
    .default('simulator')
    .transform((text) =>
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    // Provider names, checked against the registered providers at start (configured upstreams add names).
    .pipe(z.array(z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, { message: 'each entry must be a provider name' })).min(1)),
  OTP_DELIVERY: z.enum(['smtp', 'http', 'log']).default('log'),
  OTP_HTTP_URL: httpUrl.optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, message: 'must be an smtp:// or smtps:// URL' }).optional(),
  // The sender of OTP e-mails; defaults to no-reply at the host of PUBLIC_BASE_URL.
  SMTP_FROM: z.string().min(3).optional(),
  OTP_TTL: duration('5m'),
  OTP_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  OTP_RESEND_INTERVAL: duration('30s'),
  JWT_ISSUER: z.string().min(1).optional(),
  JWT_AUDIENCE: z.string().min(1).default('eid-gateway'),
  JWT_TTL: duration('1h'),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFlag,
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('5s,5m,30m,2h,5h,10h,10h')
    .transform((text, ctx) => {
      const delays = text.split(',').map((part) => parseDuration(part));
      if (delays.length === 0 || delays.some((d) => d === null)) {
        ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of durations, e.g. 5s,5m,30m' });
        return z.NEVER;
      }
      return delays as number[];
    }),
  WEBHOOK_TIMEOUT: duration('15s'),
  TRUST_PROXY: commaList.refine((list) => list.every(cidrOrAddress), 'must be a comma-separated list of IP addresses or CIDRs'),
  REDIS_URL: z.url({ protocol: /^rediss?$/, message: 'must be a redis:// URL' }).optional(),
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default('eidgw:'),
  IP_BLOCK_THRESHOLD: z.coerce.number().int().min(1).max(10_000).default(10),
  IP_BLOCK_WINDOW: duration('15m'),
  IP_BLOCK_DURATION: duration('15m'),
  DATA_ENCRYPTION_KEY: encryptionKey,
  SESSION_PII_RETENTION: duration('1h'),
  SESSION_TTL: duration('3m'),
  KIOSK_TOKEN_SECRET: kioskTokenSecret,
  // Tenant walls (docs/security.md): an RP's egress addresses, webhook fairness, limits.
  IP_BLOCK_EXEMPT: commaList.refine((list) => list.every(cidrOrAddress), 'must be a comma-separated list of IP addresses or CIDRs'),
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  CONSOLE_LOGIN_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(20),
  // How long the audit log keeps its entries (docs/audit.md).
  AUDIT_RETENTION: duration('365d').refine((ms) => ms >= 86_400_000, 'must be at least 1d'),
  // Hostile clients (docs/operations.md): headers and body within REQUEST_TIMEOUT; per-IP limits on the
  // anonymous simulator and kiosk routes; the anonymous read-only routes cached this long.
  REQUEST_TIMEOUT: duration('10s'),
  PUBLIC_ROUTE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(300),
  // e-ID logins one address may start per minute through the OpenID and upstream login pages (docs/oidc.md, "Limits").
  LOGIN_START_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(20),
  ANONYMOUS_CACHE_TTL: duration('2s'),
  // SIGTERM drains requests, kiosk streams and webhook attempts for at most this long (docs/reliability.md).
  SHUTDOWN_TIMEOUT: duration('10s'),
  // How often each process writes the last-use times of keys it noted (docs/security.md, "Last used").
  API_KEY_LAST_USED_FLUSH_INTERVAL: duration('10s').refine((ms) => ms >= 10 && ms <= 60_000, 'must be between 10ms and 1m'),
  // Kiosk streams one client address may hold open on a process (docs/kiosk.md); a bench of one address raises it.
  KIOSK_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(30),
  KIOSK_FRAME_ANCESTORS: z
    .string()
    .default("'none'")
    .transform((text) => text.split(/[\s,]+/).filter(Boolean))
    .refine(
      (list) => list.length > 0 && list.every(frameAncestor) && (list.length === 1 || !list.includes("'none'")),
      "must be 'none', 'self' or a list of origins such as https://rp.example",
    ),
};

export type PlatformEnv = z.infer<z.ZodObject<typeof PLATFORM_ENV>>;

/** The platform's cross-checks; the application root runs them with the features' (src/app.env.ts). */
export function checkPlatformEnv(env: PlatformEnv, ctx: z.core.$RefinementCtx): void {
  const production = env.NODE_ENV === 'production';
  if (production && !env.DATA_ENCRYPTION_KEY)
    ctx.addIssue({ code: 'custom', path: ['DATA_ENCRYPTION_KEY'], message: 'is required when NODE_ENV=production' });
  if (production && !env.KIOSK_TOKEN_SECRET)
    ctx.addIssue({
      code: 'custom',
      path: ['KIOSK_TOKEN_SECRET'],
      message: 'is required when NODE_ENV=production (every replica must verify kiosk links)',
    });
  if (production && !env.DATABASE_URL)
    ctx.addIssue({
      code: 'custom',
      path: ['DATABASE_URL'],
      message: 'is required when NODE_ENV=production (the embedded database is for development)',
    });
  if (production && env.OTP_DELIVERY === 'log')
    ctx.addIssue({
      code: 'custom',
      path: ['OTP_DELIVERY'],
      message: 'must be smtp or http when NODE_ENV=production (log would print codes)',
    });
  if (production && (!env.PUBLIC_BASE_URL || !env.PUBLIC_BASE_URL.startsWith('https:')))
    ctx.addIssue({
      code: 'custom',
      path: ['PUBLIC_BASE_URL'],
      message: 'must be an https URL when NODE_ENV=production (kiosk links and the token issuer use it)',
    });
  if (production && env.WEBHOOK_ALLOW_PRIVATE_TARGETS)
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_ALLOW_PRIVATE_TARGETS'],
      message: 'must not be true when NODE_ENV=production (it switches the SSRF checks off)',
    });
  if (production && env.OTP_HTTP_URL && !env.OTP_HTTP_URL.startsWith('https:'))
    ctx.addIssue({ code: 'custom', path: ['OTP_HTTP_URL'], message: 'must be an https URL when NODE_ENV=production' });
  if (production && env.SMTP_URL && !smtpWithTls(env.SMTP_URL))
    ctx.addIssue({
      code: 'custom',
      path: ['SMTP_URL'],
      message: 'must use TLS when NODE_ENV=production (smtps://, or smtp:// with ?requireTLS=true for STARTTLS)',
    });
  if (env.OTP_DELIVERY === 'smtp' && !env.SMTP_URL)
    ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'is required when OTP_DELIVERY=smtp' });
  if (env.OTP_DELIVERY === 'http' && !env.OTP_HTTP_URL)
    ctx.addIssue({ code: 'custom', path: ['OTP_HTTP_URL'], message: 'is required when OTP_DELIVERY=http' });
  if (env.WEB_CONCURRENCY > 1 && !env.DATABASE_URL)
    ctx.addIssue({
      code: 'custom',
      path: ['WEB_CONCURRENCY'],
      message: 'above 1 needs DATABASE_URL (the embedded database belongs to one process)',
    });
}

const platformEnvSchema = z.object(PLATFORM_ENV).superRefine(checkPlatformEnv);

export class ConfigValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigValidationError';
  }
}

/**
 * The variables of `source` that are set, parsed by `schema`; the message names every bad variable and its
 * rule, never its value. `unsetProblems` are the rules that must know whether a variable was set, which
 * defaults hide.
 */
export function parseEnv<T>(
  schema: z.ZodType<T>,
  source: NodeJS.ProcessEnv,
  unsetProblems: (present: Record<string, string | undefined>) => string[] = () => [],
): T {
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(present);
  const unset = unsetProblems(present);
  if (result.success && unset.length === 0) return result.data;
  throw new ConfigValidationError([
    ...unset,
    ...(result.success ? [] : result.error.issues.map((issue) => `${String(issue.path[0] ?? '(environment)')} ${issue.message}`)),
  ]);
}

/**
 * The process environment, validated once for all the configuration namespaces that read it. Kept
 * until the environment changes (tests start apps with different variables in one process).
 */
export function oncePerEnvironment<T>(validate: (source: NodeJS.ProcessEnv) => T): () => T {
  let validated: { source: string; env: T } | undefined;
  return () => {
    const source = JSON.stringify(process.env);
    if (validated?.source !== source) validated = { source, env: validate(process.env) };
    return validated.env;
  };
}

/**
 * The platform's variables, for the namespaces in this folder. The entry points (main.ts, the CLI, the
 * test apps) validate the whole environment first (src/app.env.ts), so a bad variable of any part stops
 * the start before a namespace reads this.
 */
export const validatedPlatformEnv = oncePerEnvironment((source) => parseEnv(platformEnvSchema, source));
