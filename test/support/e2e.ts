// The e2e harness. A test file states only what it tests:
//
//   const e2e = useE2eApp({ env: { SESSION_TTL: '3m' }, withKey: { plan: 'pro' }, freezeClock: true });
//   it('should …', async () => { await e2e.http.post('/api/v1/…').set('x-api-key', e2e.key).expect(200); });
//
// useE2eApp registers its own beforeAll / afterAll (a database copied from the migrated template, the
// production AppModule with a TestClock, optionally a team with an API key) and returns a context whose
// fields are read inside tests and hooks, once beforeAll has run (destructure it there, not at the top).
// Jest runs afterAll hooks in the order they were declared: start what the app needs at boot (a receiver)
// in a beforeAll declared before useE2eApp, and close it in an afterAll declared after it. Several apps
// on one database: `replicas`. Files with other needs (a refused boot, an app per test, a built service in
// a child process) use the parts: useTestDatabase(), createTestApp(), createTeamWithKey() and httpOf().
// Problem-details answers: expectProblem() in problem.ts. See docs/architecture.md, "Tests".
import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from './create-test-app.js';
import { createTeamWithKey, type TeamKeyOptions } from './fixtures.js';
import type { TestClock } from './test-clock.js';

export type TestEnv = Record<string, string | undefined>;
export type Http = ReturnType<typeof request>;
export type TeamWithKey = Awaited<ReturnType<typeof createTeamWithKey>>;

/** A supertest agent on an app's HTTP server. */
export const httpOf = (app: NestFastifyApplication): Http => request(app.getHttpServer());

export interface E2eAppOptions {
  /** Extra environment; a function is called in beforeAll, after earlier hooks (e.g. a receiver's URL). */
  env?: TestEnv | ((database: TestDatabase) => TestEnv);
  /** Extra controllers mounted beside AppModule's (probe routes). */
  controllers?: Type[];
  /** Starts this many apps on the one database (default 1), for tests of replicas; `app` is the first. */
  replicas?: number;
  /** Stops the interval jobs after boot, so tests drive the jobs' services themselves. */
  stopBackgroundJobs?: boolean;
  /** Freezes the clocks before each test (`true`: at the next whole second; a function: at the time it returns). */
  freezeClock?: boolean | (() => number);
  /** Listens on an ephemeral loopback port (for raw HTTP, fetch or a browser); `http` then goes through it. */
  listen?: boolean;
  /** With `listen`: this port instead of an ephemeral one (an app whose PUBLIC_BASE_URL must be its own address). */
  listenPort?: () => number;
  /** Timeout of the boot hook, for files whose boot is slow on the embedded-database fallback. */
  bootTimeout?: number;
  /** Creates a team with one API key in beforeAll (`true`: the defaults of createTeamWithKey). */
  withKey?: boolean | TeamKeyOptions;
}

export interface E2eApp {
  readonly database: TestDatabase;
  readonly testApp: TestApp;
  /** All apps with `replicas`, the first being `testApp`. */
  readonly replicas: TestApp[];
  readonly app: NestFastifyApplication;
  readonly http: Http;
  /** The origin the app listens on, with `listen` (e.g. http://127.0.0.1:41234). */
  readonly baseUrl: string;
  readonly clock: TestClock;
  /** One tick of the first app's background collector, now (TestApp.collect). */
  collect(): Promise<string[]>;
  /** The environment the app was started with (the database's plus `env`), for a second app or the CLI. */
  readonly env: TestEnv;
  /** The team and key made by `withKey`. */
  readonly team: TeamWithKey['team'];
  readonly apiKey: TeamWithKey['apiKey'];
  readonly key: string;
}

/** Registers beforeAll / afterAll for a fresh database only; for files that start their apps themselves. */
export function useTestDatabase(options: { embedded?: boolean; timeout?: number } = {}): { readonly current: TestDatabase } {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase({ embedded: options.embedded });
  }, options.timeout);
  afterAll(async () => {
    await database?.drop();
  });
  return {
    get current(): TestDatabase {
      if (!database) throw new Error('useTestDatabase: read the database inside a test or hook');
      return database;
    },
  };
}

/** One app on a fresh database for the whole file; see the comment at the top of this file. */
export function useE2eApp(options: E2eAppOptions = {}): E2eApp {
  let state:
    | { database: TestDatabase; replicas: TestApp[]; testApp: TestApp; http: Http; baseUrl?: string; env: TestEnv; owner?: TeamWithKey }
    | undefined;
  let database: TestDatabase | undefined;
  const started: TestApp[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const extra = typeof options.env === 'function' ? options.env(database) : options.env;
    const env = { ...database.env, ...extra };
    const frozenAt = typeof options.freezeClock === 'function' ? options.freezeClock() : undefined;
    for (let i = 0; i < (options.replicas ?? 1); i++)
      started.push(await createTestApp(env, { controllers: options.controllers, frozenAt }));
    const [testApp] = started;
    if (options.stopBackgroundJobs) for (const replica of started) replica.stopBackgroundJobs();
    let baseUrl: string | undefined;
    if (options.listen) {
      await testApp.app.listen({ port: options.listenPort?.() ?? 0, host: '127.0.0.1' });
      baseUrl = new URL(await testApp.app.getUrl()).origin;
    }
    const owner = options.withKey ? await createTeamWithKey(testApp.app, options.withKey === true ? {} : options.withKey) : undefined;
    state = { database, replicas: started, testApp, http: baseUrl ? request(baseUrl) : httpOf(testApp.app), baseUrl, env, owner };
  }, options.bootTimeout);

  if (options.freezeClock) {
    const at = options.freezeClock;
    beforeEach(() => {
      const [first, ...others] = current().replicas;
      if (at === true) first.clock.freeze();
      else first.clock.freeze(at());
      for (const replica of others) replica.clock.freeze(first.clock.nowMs());
    });
  }

  afterAll(async () => {
    for (const replica of started) await replica.close();
    await database?.drop();
  });

  const current = () => {
    if (!state) throw new Error('useE2eApp: read the context inside a test or hook, after its beforeAll');
    return state;
  };
  const owner = () => {
    const made = current().owner;
    if (!made) throw new Error('useE2eApp: pass withKey to get a team and key');
    return made;
  };
  return {
    get database() {
      return current().database;
    },
    get testApp() {
      return current().testApp;
    },
    get replicas() {
      return current().replicas;
    },
    get app() {
      return current().testApp.app;
    },
    get http() {
      return current().http;
    },
    get baseUrl() {
      const { baseUrl } = current();
      if (!baseUrl) throw new Error('useE2eApp: pass listen to get a base URL');
      return baseUrl;
    },
    get clock() {
      return current().testApp.clock;
    },
    collect: () => current().testApp.collect(),
    get env() {
      return current().env;
    },
    get team() {
      return owner().team;
    },
    get apiKey() {
      return owner().apiKey;
    },
    get key() {
      return owner().key;
    },
  };
}
