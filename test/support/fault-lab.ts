import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../src/cli/run-cli.js';
import { TEST_ENCRYPTION_KEY, withEnv } from './create-test-app.js';
import { useTestDatabase } from './e2e.js';
import { buildService, ServiceProcess } from './service-process.js';
import { SessionLoad, type LoadOptions } from './session-load.js';
import { TcpProxy } from './tcp-proxy.js';
import { usingRealPostgres } from './test-postgres.js';
import { WebhookReceiver } from './webhook-receiver.js';

/**
 * Fault tests cut the real PostgreSQL through a proxy: they need a PostgreSQL server that several
 * processes reach (the embedded database serves one). Without one they are skipped, saying so.
 */
export const describeFaults: jest.Describe = usingRealPostgres() ? describe : describe.skip;
if (!usingRealPostgres()) process.stderr.write('[faults] No PostgreSQL server reachable: the fault tests are skipped.\n');

/** Seconds a fault lasts: short in `npm test`, as the worst case of docs/reliability.md under `npm run test:faults`. */
export const faultSeconds = (fallback: number): number => Number(process.env.FAULT_SECONDS ?? fallback);

export interface FaultLab {
  readonly build: Awaited<ReturnType<typeof buildService>>;
  readonly receiver: WebhookReceiver;
  /** The proxy between every service process and PostgreSQL. */
  readonly pgProxy: TcpProxy;
  /** The test database, directly (not through the proxy), for the test's own checks. */
  readonly databaseUrl: string;
  readonly key: string;
  readonly teamId: string;
  /** The environment of a service process (through the proxy) with `extra` on top. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** The CLI against the database directly (not through the proxy). */
  cli(...argv: string[]): Promise<Record<string, string>>;
  /** Starts a service process and keeps it to be killed after the file. */
  start(extra?: Record<string, string>): Promise<ServiceProcess>;
  /** Starts a load on `baseUrl` that is stopped after the file, should the test fail first. */
  load(options: Omit<LoadOptions, 'key'>): SessionLoad;
}

/**
 * Registers beforeAll / afterAll for a fault test file: a database, a built service, a proxy in front
 * of PostgreSQL, a webhook receiver, and a `pro` team with a key and an endpoint on the receiver.
 * Timeouts are short so that recoveries fit a CI run (docs/reliability.md).
 */
export function useFaultLab(): { readonly current: FaultLab } {
  let lab: FaultLab | undefined;
  const processes: ServiceProcess[] = [];
  const loads: SessionLoad[] = [];
  let build: FaultLab['build'] | undefined;
  let receiver: WebhookReceiver | undefined;
  let pgProxy: TcpProxy | undefined;
  afterAll(async () => {
    await Promise.all(loads.map((l) => l.stop()));
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    await receiver?.close();
    await pgProxy?.close();
    await build?.remove();
  });
  const database = useTestDatabase();

  beforeAll(async () => {
    const direct = database.current.env.DATABASE_URL;
    const target = new URL(direct);
    [receiver, build, pgProxy] = await Promise.all([
      WebhookReceiver.start(),
      buildService(),
      TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) }),
    ]);
    const base = {
      DATABASE_URL: pgProxy.rewrite(direct),
      DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_TIMEOUT: '2s',
      WEBHOOK_RETRY_SCHEDULE: '1s,1s,2s,2s,5s,5s,10s',
      REQUEST_TIMEOUT: '5s',
      // Below REQUEST_TIMEOUT, with room for a loaded machine: a tighter deadline gave up on the SIGTERM
      // drain's recording of webhook attempts (sent again after their lease) at a load average of 15.
      DATABASE_QUERY_TIMEOUT: '4s',
      SIMULATOR_START_TIMEOUT: '8s',
      PUBLIC_ROUTE_LIMIT_PER_MINUTE: '100000',
    };
    const cli = async (...argv: string[]) => {
      const { exitCode, output } = await withEnv(
        { DATABASE_URL: direct, DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'silent' },
        () => runCli(argv),
      );
      if (exitCode !== 0) throw new Error(`cli ${argv.join(' ')}: ${JSON.stringify(output)}`);
      return output as Record<string, string>;
    };
    const team = await cli('teams', 'create', '--name', 'Faults AB', '--plan', 'pro', '--subscription-until', '2099-01-01T00:00:00Z');
    const key = (await cli('keys', 'create', '--team', team.id)).key;
    await cli('webhooks', 'create', '--team', team.id, '--url', receiver.url());
    const env = (extra: Record<string, string> = {}) => ({ ...base, ...extra });
    lab = {
      build,
      receiver,
      pgProxy,
      databaseUrl: direct,
      key,
      teamId: team.id,
      env,
      cli,
      start: async (extra) => {
        // A boot takes seconds, but on a loaded CI machine (load average 15 on 2 cores here) it has taken over 30.
        const service = await ServiceProcess.start(build!.main, env(extra), 90_000);
        processes.push(service);
        return service;
      },
      load: (options) => {
        const load = new SessionLoad({ ...options, key }).start();
        loads.push(load);
        return load;
      },
    };
  }, 120_000);

  return {
    get current(): FaultLab {
      if (!lab) throw new Error('useFaultLab: read the lab inside a test or hook');
      return lab;
    },
  };
}

export interface FaultFigures {
  fault: string;
  /** How long the fault lasted, and how long the service answered abnormally from its start. */
  faultSeconds: number;
  degradedSeconds: number;
  requests: Record<string, number>;
  sessions: number;
  sessionsLost: number;
  webhooksLost: number;
  webhooksDuplicated: number;
  note?: string;
}

/** Under `npm run test:faults` (FAULT_REPORT set), appends one fault's figures for docs/reliability.md. */
export async function recordFigures(figures: FaultFigures): Promise<void> {
  const file = process.env.FAULT_REPORT;
  if (!file) return;
  await mkdir(join(file, '..'), { recursive: true });
  await appendFile(file, `${JSON.stringify(figures)}\n`);
}
