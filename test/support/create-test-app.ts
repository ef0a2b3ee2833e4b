import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Test } from '@nestjs/testing';
import { AppModule } from '../../src/app.module.js';
import { configureApp, createFastifyAdapter } from '../../src/app.setup.js';
import { Clock } from '../../src/common/clock/clock.js';
import { validateEnv } from '../../src/app.env.js';
import { SessionSettlement } from '../../src/sessions/settlement/session-settlement.js';
import { TEMPLATE_DATABASE, databaseUrl, ensureTemplate, testDatabaseName, usingRealPostgres, withServer } from './test-postgres.js';
import { TestClock } from './test-clock.js';

export interface TestDatabase {
  /** Environment that points the app (or the CLI) at this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * A fresh database for one test file: a copy of the migrated template on the real server when
 * one answers, else an empty embedded PGlite directory (or when `embedded` is asked for).
 */
export async function createTestDatabase(options: { embedded?: boolean } = {}): Promise<TestDatabase> {
  if (usingRealPostgres() && !options.embedded) {
    await ensureTemplate();
    const name = testDatabaseName(randomBytes(6).toString('hex'));
    await withServer((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`));
    return {
      env: { DATABASE_URL: databaseUrl(name) },
      drop: () => withServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
    };
  }
  // Short path: the embedded database listens on a Unix socket inside DATA_DIR (108-byte limit).
  const dataDir = await mkdtemp(join(tmpdir(), 'eidgw-'));
  return { env: { DATA_DIR: dataDir }, drop: () => rm(dataDir, { recursive: true, force: true }) };
}

export interface TestApp {
  app: NestFastifyApplication;
  clock: TestClock;
  /**
   * Stops the interval jobs (collector, purge…): they tick on wall time, so a tick could land between a
   * test's clock move and its next step. Tests then drive the jobs' services themselves.
   */
  stopBackgroundJobs(): void;
  /**
   * One tick of the background collector, now. Polls answer what it stored (docs/performance.md,
   * "Poll") and its interval ticks on wall time, so a test that moves the clock runs the tick itself.
   */
  collect(): Promise<string[]>;
  close(): Promise<void>;
}

/** Runs `work` with extra environment variables, restoring the previous values afterwards. */
export async function withEnv<T>(overrides: Record<string, string | undefined>, work: () => Promise<T>): Promise<T> {
  const previous = Object.fromEntries(Object.keys(overrides).map((key) => [key, process.env[key]]));
  Object.assign(process.env, overrides);
  for (const [key, value] of Object.entries(overrides)) if (value === undefined) delete process.env[key];
  try {
    return await work();
  } finally {
    for (const [key, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

// One key per test file, so two apps of one file can read each other's rows.
export const TEST_ENCRYPTION_KEY = randomBytes(32).toString('base64');
const TEST_KIOSK_TOKEN_SECRET = randomBytes(32).toString('base64');

/** The production AppModule and pipeline; only the clock is replaced, so tests can move time. */
export async function createTestApp(
  env: Record<string, string | undefined>,
  options: { controllers?: Type[]; frozenAt?: number } = {},
): Promise<TestApp> {
  const clock = new TestClock();
  // A test of a fixed day starts the app on it: what the app makes at boot (the simulator's CA) is then
  // valid on that day, whatever the wall clock says.
  if (options.frozenAt !== undefined) clock.freeze(options.frozenAt);
  // The anonymous routes' cache is off unless a test asks for it: tests move the clock and rotate keys.
  // Every test browser comes from 127.0.0.1, so the per-address limits would count a whole file's logins
  // as one visitor's (a fast run crossed 300 a minute): they are off unless a test sets them.
  const app = await withEnv(
    {
      LOG_LEVEL: 'silent',
      DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      KIOSK_TOKEN_SECRET: TEST_KIOSK_TOKEN_SECRET,
      ANONYMOUS_CACHE_TTL: '0',
      PUBLIC_ROUTE_LIMIT_PER_MINUTE: '1000000',
      LOGIN_START_LIMIT_PER_MINUTE: '1000000',
      ...env,
    },
    async () => {
      // As main.ts: a bad environment stops the start before any module connects to anything.
      const env = validateEnv();
      const moduleRef = await Test.createTestingModule({ imports: [AppModule], controllers: options.controllers })
        .overrideProvider(Clock)
        .useValue(clock)
        .compile();
      const nest = moduleRef.createNestApplication<NestFastifyApplication>(createFastifyAdapter(env), { logger: false });
      return configureApp(nest);
    },
  );
  const stopBackgroundJobs = () => {
    const scheduler = app.get(SchedulerRegistry);
    for (const name of scheduler.getIntervals()) scheduler.deleteInterval(name);
  };
  return { app, clock, stopBackgroundJobs, collect: () => app.get(SessionSettlement).collectDue(), close: () => app.close() };
}
