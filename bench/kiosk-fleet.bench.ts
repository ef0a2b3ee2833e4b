// The fleet scenario (issue 9): SESSIONS pending sessions on one service process, each watched by one
// kiosk holding its event stream, for SECONDS. This process is the load; the service runs in a child
// process on its own PostgreSQL database. Reports the service's CPU, frame latency and dropped frames.
// Run: npm run bench:qr (builds first). Env: SESSIONS (1000), SECONDS (30), BENCH_POSTGRES_URL, and
// VIEWER=png|svg for viewers that instead fetch each frame from the API's QR route with the API key.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import pg from 'pg';
import { SERVICE_ENV, SERVICE_NODE_FLAGS, SERVICE_SCRIPT } from './lib/processes.js';
import { printSection } from './lib/report.js';

const SESSIONS = Number(process.env.SESSIONS ?? 1000);
const SECONDS = Number(process.env.SECONDS ?? 30);
const VIEWER = (process.env.VIEWER ?? 'stream') as 'stream' | 'png' | 'svg';
const BASELINE_SECONDS = 10;
const WARMUP_MS = 5_000;
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

interface Started {
  sessionId: string;
  token: string;
  orderTimeMs: number;
}

interface Frame {
  qrTime: number;
  receivedAt: number;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** user + system CPU seconds of a process, from /proc (the service is a separate process). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

async function withDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function waitForReady(base: string, service: ChildProcess): Promise<void> {
  for (let i = 0; i < 120; i++) {
    if (service.exitCode !== null) throw new Error(`The service exited with ${service.exitCode}`);
    const ready = await fetch(`${base}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('The service did not become ready in 60 s');
}

function cli(env: NodeJS.ProcessEnv, ...args: string[]): Record<string, string> {
  return JSON.parse(execFileSync(process.execPath, ['dist/src/cli.js', ...args], { env, encoding: 'utf8' }));
}

async function startSessions(base: string, key: string, agent: http.Agent): Promise<{ sessionId: string; token: string }[]> {
  const started: { sessionId: string; token: string }[] = [];
  const startOne = async () => {
    const body = JSON.stringify({ endUserIp: '192.0.2.10' });
    const answer = await new Promise<string>((resolve, reject) => {
      const req = http.request(
        `${base}/api/v1/auth/simulator/start`,
        { method: 'POST', agent, headers: { 'x-api-key': key, 'content-type': 'application/json' } },
        (res) => {
          let text = '';
          res
            .on('data', (chunk) => (text += chunk))
            .on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`start: ${res.statusCode} ${text}`))));
        },
      );
      req.on('error', reject).end(body);
    });
    const { sessionId, kioskUrl } = JSON.parse(answer);
    started.push({ sessionId, token: new URL(kioskUrl).hash.slice(3) });
  };
  // Sixteen at a time: what matters here is the pending sessions, not how fast they were made.
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next++ < SESSIONS) await startOne();
    }),
  );
  return started;
}

/** One kiosk: holds its session's event stream and notes when each frame arrived. */
function watch(base: string, session: Started, agent: http.Agent, frames: Frame[], onError: (error: Error) => void): http.ClientRequest {
  const req = http.get(
    `${base}/kiosk/${session.sessionId}/events`,
    { agent, headers: { authorization: `Kiosk ${session.token}` } },
    (res) => {
      if (res.statusCode !== 200) return onError(new Error(`events: ${res.statusCode}`));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const receivedAt = Date.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith('event: frame'))
            frames.push({ qrTime: JSON.parse(block.slice(block.indexOf('data: ') + 6)).qrTime, receivedAt });
        }
      });
    },
  );
  req.on('error', onError);
  return req;
}

/** A viewer without a stream: fetches the image just after each frame becomes current, as a polling page would. */
function poll(
  base: string,
  key: string,
  session: Started,
  agent: http.Agent,
  frames: Frame[],
  onError: (error: Error) => void,
): () => void {
  let timer: NodeJS.Timeout;
  const fetchFrame = (qrTime: number) => {
    const req = http.get(
      `${base}/api/v1/auth/${session.sessionId}/qr?format=${VIEWER}`,
      { agent, headers: { 'x-api-key': key } },
      (res) => {
        res
          .resume()
          .on('end', () =>
            res.statusCode === 200 ? frames.push({ qrTime, receivedAt: Date.now() }) : onError(new Error(`qr: ${res.statusCode}`)),
          );
      },
    );
    req.on('error', onError);
  };
  const schedule = () => {
    const qrTime = Math.floor((Date.now() - session.orderTimeMs) / 1000) + 1;
    timer = setTimeout(
      () => {
        fetchFrame(qrTime);
        schedule();
      },
      session.orderTimeMs + qrTime * 1000 + 5 - Date.now(),
    );
  };
  schedule();
  return () => clearTimeout(timer);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main(): Promise<void> {
  const database = `eidgw_bench_${randomBytes(4).toString('hex')}`;
  await withDatabase(ADMIN_URL, (client) => client.query(`CREATE DATABASE ${database}`));
  const databaseUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${database}` }).toString();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'development',
    PORT: String(port),
    PUBLIC_BASE_URL: base,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    KIOSK_TOKEN_SECRET: randomBytes(32).toString('base64'),
    // Sessions must stay pending for the whole run.
    SESSION_TTL: '30m',
    SIMULATOR_START_TIMEOUT: '30m',
    // The fleet's 1,000 screens all connect from this one address; real screens each have their own,
    // so the per-address limit of the kiosk routes (docs/protection.md) must not shape the bench.
    PUBLIC_ROUTE_LIMIT_PER_MINUTE: '1000000',
    KIOSK_STREAMS_PER_ADDRESS: '1000000',
  };
  // BENCH_NODE_ARGS, e.g. "--cpu-prof", goes to the service's node (to see where its time goes).
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const service = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...nodeArgs, SERVICE_SCRIPT], {
    env: { ...SERVICE_ENV, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const requests: http.ClientRequest[] = [];
  try {
    await waitForReady(base, service);
    const team = cli(env, 'teams', 'create', '--name', 'fleet', '--plan', 'pro', '--subscription-until', '2100-01-01T00:00:00Z');
    const { key } = cli(env, 'keys', 'create', '--team', team.id, '--env', 'test');

    const started = await startSessions(base, key, agent);
    // Frames count from each order's own time, which only the database knows to the millisecond.
    const orderTimes = await withDatabase(databaseUrl, async (client) => {
      const { rows } = await client.query<{ id: string; order_time: Date }>('SELECT id, order_time FROM sessions');
      return new Map(rows.map((row) => [row.id, row.order_time.getTime()]));
    });
    const sessions: Started[] = started.map((s) => ({ ...s, orderTimeMs: orderTimes.get(s.sessionId)! }));

    // Baseline: the same pending sessions and nobody watching (the background collector's share).
    const baselineCpu = cpuSeconds(service.pid!);
    await new Promise((resolve) => setTimeout(resolve, BASELINE_SECONDS * 1000));
    const baselineShare = (cpuSeconds(service.pid!) - baselineCpu) / BASELINE_SECONDS;

    const frames = sessions.map(() => [] as Frame[]);
    const errors: Error[] = [];
    const stops: (() => void)[] = [];
    sessions.forEach((session, i) => {
      const onError = (error: Error) => errors.push(error);
      if (VIEWER === 'stream') requests.push(watch(base, session, agent, frames[i], onError));
      else stops.push(poll(base, key, session, agent, frames[i], onError));
    });
    await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));

    const windowStart = Date.now();
    const cpuStart = cpuSeconds(service.pid!);
    const benchCpuStart = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const windowEnd = Date.now();
    const serviceShare = (cpuSeconds(service.pid!) - cpuStart) / ((windowEnd - windowStart) / 1000);
    const benchUsage = process.cpuUsage(benchCpuStart);
    for (const stop of stops) stop();

    // A frame is due at orderTime + qrTime s; it counts as dropped if it never came or came after the next one was due.
    const latencies: number[] = [];
    let due = 0;
    let dropped = 0;
    sessions.forEach((session, i) => {
      const byTime = new Map(frames[i].map((frame) => [frame.qrTime, frame.receivedAt]));
      const first = Math.ceil((windowStart - session.orderTimeMs) / 1000);
      const last = Math.floor((windowEnd - 1000 - session.orderTimeMs) / 1000);
      for (let qrTime = first; qrTime <= last; qrTime++) {
        due++;
        const receivedAt = byTime.get(qrTime);
        const latency = receivedAt === undefined ? Infinity : receivedAt - (session.orderTimeMs + qrTime * 1000);
        if (latency >= 1000) dropped++;
        else latencies.push(latency);
      }
    });
    latencies.sort((a, b) => a - b);
    const lines = [
      VIEWER === 'stream'
        ? `Kiosk fleet: ${SESSIONS} pending sessions, one event stream each, ${SECONDS} s on one service process (Node ${process.version}):`
        : `QR fleet: ${SESSIONS} pending sessions, one viewer each fetching a ${VIEWER.toUpperCase()} frame a second from the API, ${SECONDS} s on one service process (Node ${process.version}):`,
      '',
      '| measure | value | target |',
      '|---|---:|---:|',
      `| service CPU, ${SESSIONS} viewers | ${(serviceShare * 100).toFixed(1)}% of one core | < 50% |`,
      `| service CPU, same sessions, no streams (collector baseline) | ${(baselineShare * 100).toFixed(1)}% of one core | |`,
      `| frames due / received in time | ${due.toLocaleString('en-US')} / ${latencies.length.toLocaleString('en-US')} | |`,
      `| frames dropped (never came, or came after the next was due) | ${dropped} | 0 |`,
      `| frame latency p50 / p99 / max (due → received) | ${percentile(latencies, 50)} / ${percentile(latencies, 99)} / ${latencies.at(-1)} ms | p99 <= 50 ms |`,
      `| errors (refused or broken requests) | ${errors.length}${errors.length ? ` (first: ${errors[0].message})` : ''} | 0 |`,
      `| load generator CPU (this process) | ${(((benchUsage.user + benchUsage.system) / 1e6 / SECONDS) * 100).toFixed(1)}% of one core | |`,
    ];
    await printSection(VIEWER === 'stream' ? 'Kiosk fleet' : 'QR fleet', lines);
  } finally {
    for (const req of requests) req.destroy();
    agent.destroy();
    service.kill('SIGTERM');
    await new Promise((resolve) => (service.exitCode !== null ? resolve(null) : service.once('exit', resolve)));
    await withDatabase(ADMIN_URL, (client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  }
}

await main();
