import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { runLoad, type LoadOptions, type LoadResult } from './lib/load.js';
import { PostgresBackendCpu } from './lib/postgres-cpu.js';
import { redisCpuMs } from './lib/redis-cpu.js';
import { measureCheckCost } from './rate-limit-check.js';
import { cpuTimeMs, rssMiB, SERVICE_SCRIPT, startProcess, startService, type RunningProcess } from './lib/processes.js';
import { fmt, machine, markdownTable, textTable, type Target } from './lib/report.js';

/**
 * `npm run bench`: the service against the limit of its stack, side by side in one run (the
 * machine is noisy, so only same-run ratios mean anything). Writes docs/benchmarks.md.
 */
const CLI = 'dist/src/cli.js';
const BASELINE = 'dist/bench/baseline-server.js';
const PG_SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PORT = { service: 3401, baseline: 3402, receiver: 3403, redisService: 3404 };
const TENANTS = 3;
// What a paying customer's key has (docs/protection.md): every limit set, the per-minute one never reached here.
const LIMITED = ['--per-minute', '10000000', '--monthly', '100000000', '--ip-limit', '1000'];
const CHECK_LIMITS = [60, 10_000, 10_000_000];
// A start as a relying party sends it: text to show, a return URL, its own order reference.
const startBody = (tenant: number, i: number) =>
  JSON.stringify({
    endUserIp: `192.0.2.${(i % 200) + 10}`,
    userVisibleData: `Logga in hos Tenant ${tenant} AB\nOrder A-${100_000 + i}, 1 249,00 kr`,
    returnUrl: `https://rp${tenant}.example/login/return?nonce=${(i * 7919).toString(16)}`,
    metadata: { orderId: `A-${100_000 + i}`, channel: 'web', amountOre: 124_900 },
  });
const WEBHOOK_MESSAGES = 200;
// BENCH_ONLY=rate-limits (the limited-key polls and the check's cost), =hot-routes (hello, start, the
// polls and the QR's JSON), =webhooks or =memory: that part alone, printed, docs/benchmarks.md left as it is.
const ONLY = process.env.BENCH_ONLY as 'rate-limits' | 'hot-routes' | 'webhooks' | 'memory' | undefined;
const ONLY_RATE_LIMITS = ONLY === 'rate-limits';
const PENDING_FOR_MEMORY = 10_000;
// Each start-up figure is the median of this many starts.
const STARTS = 3;
const READY = `http://127.0.0.1:${PORT.service}/health/ready`;

const run = promisify(execFile);
const results: string[][] = [];
const targets: Target[] = [];
let backends: PostgresBackendCpu;

async function main(): Promise<void> {
  const server = await postgres();
  if (!server) {
    console.log('No PostgreSQL reachable: the bench needs one (BENCH_DATABASE_URL); the embedded start-up time is still measured.');
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'eidgw-bench-'));
  const database = server ? await createDatabase(server.url) : null;
  const env = {
    ...(database ? { DATABASE_URL: database.url } : { DATA_DIR: dataDir }),
    PORT: String(PORT.service),
    LOG_LEVEL: 'warn',
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    // Sessions must stay pending for the whole run.
    SIMULATOR_START_TIMEOUT: '1h',
    // The bench's webhook receiver listens on loopback.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    SESSION_TTL: '1h',
    // Every simulated phone scans from this one address; real phones each have their own, so the
    // per-address limit of the simulator's routes (docs/protection.md) must not shape the bench.
    PUBLIC_ROUTE_LIMIT_PER_MINUTE: '1000000',
  };
  try {
    if (server && database) await onPostgres(env, database.url, server.url);
    if (!ONLY) await embeddedStartup(dataDir);
  } finally {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
  report(server?.version ?? null);
}

async function onPostgres(env: Record<string, string>, databaseUrl: string, serverUrl: string): Promise<void> {
  // A start on a new database runs every migration; the restarts after it start as a replica or a
  // rolling restart does, on the migrated database. The last restart serves the rest of the bench.
  const newDatabase: number[] = [];
  for (let i = 1; i < STARTS; i++) {
    const scratch = await createDatabase(serverUrl);
    try {
      const started = await startService(SERVICE_SCRIPT, { ...env, DATABASE_URL: scratch.url }, READY);
      newDatabase.push(started.startupMs);
      await started.stop();
    } finally {
      await scratch.drop();
    }
  }
  const restarts: number[] = [];
  let service = await startService(SERVICE_SCRIPT, env, READY);
  newDatabase.push(service.startupMs);
  for (let i = 0; i < STARTS; i++) {
    await service.stop();
    service = await startService(SERVICE_SCRIPT, env, READY);
    restarts.push(service.startupMs);
  }
  const baseline = await startProcess(
    BASELINE,
    { DATABASE_URL: databaseUrl, PORT: String(PORT.baseline) },
    `http://127.0.0.1:${PORT.baseline}/hello`,
  );
  results.push(startupRow('start-up to ready (PostgreSQL, a new database: every migration)', newDatabase, 2_000));
  results.push(startupRow('start-up to ready (PostgreSQL, restart)', restarts, 2_000));
  backends = new PostgresBackendCpu(databaseUrl);
  await backends.connect();
  try {
    const keys = await createKeys(env);
    const { teamId, limitedKey: key } = keys.tenants[0];
    const api = `http://127.0.0.1:${PORT.service}`;
    const base = `http://127.0.0.1:${PORT.baseline}`;
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };

    const idle = rssMiB(service.child.pid!);
    if (ONLY === 'webhooks') return await webhooks(env, teamId, api, headers);
    if (ONLY === 'memory') return await memoryAndCollector(service, api, headers, idle, databaseUrl);
    if (!ONLY_RATE_LIMITS) await hotRoutes(keys, api, base, service, baseline, databaseUrl);
    const { polls, sessionIds } = await pollLimitedAndUnlimited(keys, api, base, service, baseline);
    const viewers = sessionIds.slice(0, 100);
    const qrJson = ONLY_RATE_LIMITS ? null : await qrJsonAgainstHello(key, viewers, api, base, service, baseline);
    if (ONLY === 'hot-routes') return;
    await onRedis(env, polls);
    await checkCost(databaseUrl, keys.checkKeyIds);
    if (ONLY_RATE_LIMITS || !qrJson) return;

    const qrPng = await load(
      { url: api, headers: { 'x-api-key': key }, path: cycle(viewers, (id) => `/api/v1/auth/${id}/qr?format=png`) },
      service,
    );
    results.push([
      'QR PNG (100 sessions, per-second cache)',
      fmt.rps(qrPng.rps),
      fmt.rps(qrJson.rps),
      fmt.pct(qrPng.rps / qrJson.rps),
      `${latency(qrPng)}; CPU ${us(qrPng.cpuUsPerRequest!)} per request`,
    ]);
    target('QR PNG ≥ 80% of QR JSON', '≥ 80%', qrPng.rps / qrJson.rps, qrPng.rps / qrJson.rps >= 0.8);

    await webhooks(env, teamId, api, headers);
    await memoryAndCollector(service, api, headers, idle, databaseUrl);
    await cluster(env, key, sessionIds, service, baseline);
  } finally {
    await Promise.all([service.stop(), baseline.stop()]);
    await backends.close();
  }
}

type Keys = Awaited<ReturnType<typeof createKeys>>;
type Poll = { path: string; limited: Record<string, string>; unlimited: Record<string, string> };

async function hotRoutes(
  keys: Keys,
  api: string,
  base: string,
  service: RunningProcess,
  baseline: RunningProcess,
  databaseUrl: string,
): Promise<void> {
  compare(
    'hello (GET /health/live vs bare route)',
    await load({ url: `${api}/health/live` }, service),
    await load({ url: `${base}/hello` }, baseline),
  );
  let started = 0;
  const ours: LoadOptions = {
    url: api,
    method: 'POST',
    next: () => {
      const tenant = started++ % TENANTS;
      return {
        path: '/api/v1/auth/simulator/start',
        headers: { 'x-api-key': keys.tenants[tenant].limitedKey, 'content-type': 'application/json' },
      };
    },
    body: startBody(0, 1),
  };
  const bare: LoadOptions = {
    url: `${base}/start`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: startBody(0, 1),
  };
  // Two unmeasured seconds each, as before the polls: a route's first second is V8 compiling it, and
  // the hello step before this one ran none of the start's code. The warm-up's sessions are ended, so
  // that the measured step starts with none pending, as it did.
  for (const options of [ours, bare]) await runLoad({ ...options, durationSeconds: 2 });
  await endPendingSessions(databaseUrl);
  const start = compare(
    `start (one session; ${TENANTS} tenants, limited keys)`,
    await load(ours, service, 'service'),
    await load(bare, baseline, 'bench-baseline'),
  );
  target('start ≥ 50% of its baseline (limited keys)', '≥ 50%', start, start >= 0.5);
  // The start step leaves thousands of sessions pending; the collector would keep working on them
  // through every later step. End them, so each step measures its own work (the collector's cost is
  // measured on its own below).
  await endPendingSessions(databaseUrl);
}

/**
 * 1,000 sessions spread over the tenants, polled with each tenant's limited key, then the same
 * sessions in the same order with each tenant's unlimited key: only the keys' limits differ.
 */
async function pollLimitedAndUnlimited(
  keys: Keys,
  api: string,
  base: string,
  service: RunningProcess,
  baseline: RunningProcess,
): Promise<{ polls: Poll[]; sessionIds: string[] }> {
  const polls: Poll[] = [];
  for (const [tenant, { limitedKey, unlimitedKey }] of keys.tenants.entries()) {
    const ids = await startSessions(
      api,
      { 'x-api-key': limitedKey, 'content-type': 'application/json' },
      Math.ceil(1_000 / TENANTS),
      tenant,
    );
    polls.push(
      ...ids.map((id) => ({
        path: `/api/v1/auth/${id}/poll`,
        limited: { 'x-api-key': limitedKey },
        unlimited: { 'x-api-key': unlimitedKey },
      })),
    );
  }
  const baselineIds = await Promise.all(
    Array.from({ length: 1_000 }, (_, i) =>
      fetch(`${base}/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: startBody(0, i) })
        .then((r) => r.json())
        .then((b) => (b as { sessionId: string }).sessionId),
    ),
  );
  await warmUp(api, polls);
  const [limitedPoll, unlimitedPoll] = await sideBySide(
    () => load({ url: api, method: 'POST', next: cycle(polls, (p) => ({ path: p.path, headers: p.limited })) }, service, 'service'),
    () => load({ url: api, method: 'POST', next: cycle(polls, (p) => ({ path: p.path, headers: p.unlimited })) }, service, 'service'),
  );
  const pollRatio = compare(
    `poll (stored state; ${TENANTS} tenants, limited keys)`,
    limitedPoll,
    await load({ url: base, method: 'POST', path: cycle(baselineIds, (id) => `/poll/${id}`) }, baseline, 'bench-baseline'),
  );
  const limitedShare = compare('poll, limited keys vs unlimited keys (PostgreSQL store)', limitedPoll, unlimitedPoll);
  target('poll ≥ 60% of its baseline (limited keys)', '≥ 60%', pollRatio, pollRatio >= 0.6);
  target('poll, limited ≥ 90% of unlimited (PostgreSQL store)', '≥ 90%', limitedShare, limitedShare >= 0.9);
  const firstTenant = keys.tenants[0].limitedKey;
  return { polls, sessionIds: polls.filter((p) => p.limited['x-api-key'] === firstTenant).map((p) => p.path.split('/')[4]) };
}

/** The QR's JSON frame (100 pending sessions) against the bare hello: a keyed read and its answer, no more. */
async function qrJsonAgainstHello(
  key: string,
  viewers: string[],
  api: string,
  base: string,
  service: RunningProcess,
  baseline: RunningProcess,
): Promise<MeasuredLoad> {
  const qrJson = await load({ url: api, headers: { 'x-api-key': key }, path: cycle(viewers, (id) => `/api/v1/auth/${id}/qr`) }, service);
  const ratio = compare('QR JSON (100 sessions) vs bare hello', qrJson, await load({ url: `${base}/hello` }, baseline));
  target('QR JSON ≥ 15% of a bare hello', '≥ 15%', ratio, ratio >= 0.15);
  return qrJson;
}

/** The same poll comparison with the limits kept in Redis: a second service process on the same database. */
async function onRedis(env: Record<string, string>, polls: Poll[]): Promise<void> {
  if (!(await redisReachable())) {
    results.push(['poll on the Redis store', 'skipped', '', '', `no Redis at ${REDIS_URL} (BENCH_REDIS_URL)`]);
    return;
  }
  const prefix = `eidgw-bench:${randomBytes(4).toString('hex')}:`;
  const service = await startService(
    SERVICE_SCRIPT,
    { ...env, PORT: String(PORT.redisService), REDIS_URL, REDIS_KEY_PREFIX: prefix },
    `http://127.0.0.1:${PORT.redisService}/health/ready`,
  );
  const api = `http://127.0.0.1:${PORT.redisService}`;
  const redis = new Redis(REDIS_URL);
  try {
    await warmUp(api, polls);
    let redisMs = 0;
    const [limited, unlimited] = await sideBySide(
      async () => {
        const before = await redisCpuMs(redis);
        const result = await load(
          { url: api, method: 'POST', next: cycle(polls, (p) => ({ path: p.path, headers: p.limited })) },
          service,
          'service',
        );
        redisMs += (await redisCpuMs(redis)) - before;
        return result;
      },
      () => load({ url: api, method: 'POST', next: cycle(polls, (p) => ({ path: p.path, headers: p.unlimited })) }, service, 'service'),
    );
    const redisUs = (redisMs * 1000) / (limited.rps * SECONDS * 2);
    const share = compare('poll, limited keys vs unlimited keys (Redis store)', limited, unlimited);
    results.at(-1)![4] += `; Redis server ${us(redisUs)} per limited request (the whole shared server)`;
    target('poll, limited ≥ 90% of unlimited (Redis store)', '≥ 90%', share, share >= 0.9);
  } finally {
    redis.disconnect();
    await service.stop();
    await deleteRedisKeys(prefix);
  }
}

const PHASE_NAMES = { admitting: 'admitting', refusing: 'window full', allowance: 'admitting, with the allowance' } as const;

/** The check alone at per-minute limits 60, 10,000 and 10,000,000 (bench/rate-limit-check.ts). */
async function checkCost(databaseUrl: string, apiKeyIds: Record<number, string>): Promise<void> {
  const costs = await measureCheckCost({ databaseUrl, redisUrl: (await redisReachable()) ? REDIS_URL : null, apiKeyIds, seconds: SECONDS });
  for (const c of costs) {
    results.push([
      `rate-limit check alone, ${c.store}, per-minute ${c.perMinute.toLocaleString('en-US')}, ${PHASE_NAMES[c.phase]}`,
      fmt.rps(c.checksPerSecond).replace('req/s', 'checks/s'),
      '',
      '',
      `${c.accepted.toLocaleString('en-US')} admitted, ${c.refused.toLocaleString('en-US')} refused; ${c.store} CPU ${us(c.storeCpuUsPerCheck)}, service CPU ${us(c.serviceCpuUsPerCheck)} per check`,
    ]);
  }
  for (const store of ['PostgreSQL', 'Redis'] as const) {
    for (const [phase, low, high] of [
      ['admitting', 10_000, 10_000_000],
      ['refusing', 60, 10_000],
    ] as const) {
      const at = (limit: number) => costs.find((c) => c.store === store && c.phase === phase && c.perMinute === limit)?.storeCpuUsPerCheck;
      const [a, b] = [at(low), at(high)];
      if (a === undefined || b === undefined) continue;
      const growth = b / a;
      target(
        `check cost flat, ${store}, ${phase === 'admitting' ? 'admitting' : 'window full'}: CPU per check at ${high.toLocaleString('en-US')} / at ${low.toLocaleString('en-US')}`,
        '≤ 1.5×',
        growth,
        growth <= 1.5,
        (v) => `${v.toFixed(2)}×`,
      );
    }
  }
}

async function redisReachable(): Promise<boolean> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

async function deleteRedisKeys(prefix: string): Promise<void> {
  const client = new Redis(REDIS_URL);
  try {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
  } finally {
    client.disconnect();
  }
}

/**
 * Completion → delivery: sessions approved in the simulator, webhooks timed at a local receiver from
 * the session's `completedAt` (when the service recorded the verified result) and, for context, from
 * the approval (which adds the wait for the next collect, up to 2 s).
 */
async function webhooks(env: Record<string, string>, teamId: string, api: string, headers: Record<string, string>): Promise<void> {
  const arrivals: { latencyMs: number; sinceApprovalMs: number; at: number }[] = [];
  const approvedAt = new Map<string, number>();
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const at = Date.now();
      const { data } = JSON.parse(body) as { data: { sessionId: string; completedAt: string } };
      arrivals.push({ latencyMs: at - Date.parse(data.completedAt), sinceApprovalMs: at - (approvedAt.get(data.sessionId) ?? NaN), at });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(PORT.receiver, '127.0.0.1', resolve));
  try {
    await cli(env, 'webhooks', 'create', '--team', teamId, '--url', `http://127.0.0.1:${PORT.receiver}/hooks`);
    const started = (await Promise.all(
      Array.from({ length: WEBHOOK_MESSAGES }, () =>
        fetch(`${api}/api/v1/auth/simulator/start`, { method: 'POST', headers, body: startBody(0, 1) }).then((r) => r.json()),
      ),
    )) as { sessionId: string; autoStartToken: string }[];
    await Promise.all(
      started.map(async (s) => {
        await fetch(`${api}/api/v1/simulator/scan`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ autoStartToken: s.autoStartToken }),
        });
        approvedAt.set(s.sessionId, Date.now());
      }),
    );
    const deadline = Date.now() + 30_000;
    while (arrivals.length < WEBHOOK_MESSAGES && Date.now() < deadline) await sleep(100);
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
  const quantile = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  };
  const pick = quantile(arrivals.map((a) => a.latencyMs));
  const sinceApproval = quantile(arrivals.map((a) => a.sinceApprovalMs));
  const times = arrivals.map((a) => a.at);
  const rate = arrivals.length / Math.max(0.001, (Math.max(...times) - Math.min(...times)) / 1000);
  results.push([
    `webhooks: ${arrivals.length}/${WEBHOOK_MESSAGES} delivered to a local receiver`,
    `${Math.round(rate)} msg/s`,
    '',
    '',
    `completion → delivery p50 ${fmt.ms(pick(0.5))}, p99 ${fmt.ms(pick(0.99))}; ` +
      `approval → delivery (with the wait for the collect) p50 ${fmt.ms(sinceApproval(0.5))}, p99 ${fmt.ms(sinceApproval(0.99))}`,
  ]);
  target('webhook completion → delivery p99', '≤ 250 ms', pick(0.99), pick(0.99) <= 250, fmt.ms);
}

async function memoryAndCollector(
  service: RunningProcess,
  api: string,
  headers: Record<string, string>,
  idleMiB: number,
  databaseUrl: string,
): Promise<void> {
  const pid = service.child.pid!;
  results.push(['RSS idle', `${idleMiB.toFixed(0)} MiB`, '', '']);
  // Topped up to 10,000: the poll step left about 1,000 pending, BENCH_ONLY=memory none.
  await startSessions(api, headers, PENDING_FOR_MEMORY - (await pendingSessions(databaseUrl)));
  await sleep(4_000);
  const cpuBefore = cpuTimeMs(pid);
  const window = 10_000;
  // RSS rises and falls with the garbage collector's cycle: sampled through the window, the peak counts.
  const samples: number[] = [];
  for (let waited = 0; waited < window; waited += 500) {
    await sleep(500);
    samples.push(rssMiB(pid));
  }
  const cpuShare = (cpuTimeMs(pid) - cpuBefore) / window;
  samples.sort((a, b) => a - b);
  const [median, peak] = [samples[Math.floor(samples.length / 2)], samples.at(-1)!];
  results.push([
    `collecting ${PENDING_FOR_MEMORY.toLocaleString('en-US')} pending sessions every 2 s`,
    `${fmt.pct(cpuShare)} of a core`,
    '',
    '',
    `${fmt.pct(cpuShare / 10)} per 1,000 pending`,
  ]);
  results.push([
    `RSS with ${PENDING_FOR_MEMORY.toLocaleString('en-US')} pending (peak of 20 samples in 10 s)`,
    `${peak.toFixed(0)} MiB`,
    '',
    '',
    `median ${median.toFixed(0)} MiB`,
  ]);
  target('collector CPU at 10,000 pending', '≤ 25% of one core', cpuShare, cpuShare <= 0.25);
  target('RSS at 10,000 pending (peak)', '≤ 200 MB', peak * 1.048576, peak * 1.048576 <= 200, (v) => `${v.toFixed(0)} MB`);
}

async function cluster(
  env: Record<string, string>,
  key: string,
  sessionIds: string[],
  single: RunningProcess,
  baseline: RunningProcess,
): Promise<void> {
  // Each measured alone, without the baseline server competing for the two cores.
  await baseline.stop();
  const path = cycle(sessionIds, (id) => `/api/v1/auth/${id}/poll`);
  const one = await load({ url: `http://127.0.0.1:${PORT.service}`, method: 'POST', headers: { 'x-api-key': key }, path });
  await single.stop();
  const two = await startService(SERVICE_SCRIPT, { ...env, WEB_CONCURRENCY: '2' }, `http://127.0.0.1:${PORT.service}/health/ready`);
  try {
    await sleep(3_000); // let the second worker finish booting
    const both = await load({ url: `http://127.0.0.1:${PORT.service}`, method: 'POST', headers: { 'x-api-key': key }, path });
    results.push([
      'poll, 2 worker processes (WEB_CONCURRENCY=2)',
      fmt.rps(both.rps),
      fmt.rps(one.rps),
      `×${(both.rps / one.rps).toFixed(2)}`,
      latency(both),
    ]);
  } finally {
    await two.stop();
  }
}

async function embeddedStartup(dataDir: string): Promise<void> {
  const [firsts, restarts]: number[][] = [[], []];
  for (let i = 0; i < STARTS; i++) {
    const env = { DATA_DIR: join(dataDir, `embedded-${i}`), PORT: String(PORT.service), LOG_LEVEL: 'warn' };
    for (const times of [firsts, restarts]) {
      const started = await startService(SERVICE_SCRIPT, env, READY);
      times.push(started.startupMs);
      await started.stop();
    }
  }
  results.push(startupRow('start-up to ready (embedded, first start)', firsts, 5_000));
  results.push(startupRow('start-up to ready (embedded, restart)', restarts));
}

/**
 * The median of the starts, and each start (one start alone moves by a few hundred ms on this
 * machine), checked against its budget in docs/performance.md where it has one.
 */
function startupRow(name: string, startupMs: number[], budgetMs?: number): string[] {
  const median = [...startupMs].sort((a, b) => a - b)[Math.floor(startupMs.length / 2)];
  if (budgetMs !== undefined)
    target(name.replace('start-up to ready', 'spawn to ready'), `< ${budgetMs / 1000} s`, median, median < budgetMs, fmt.ms);
  return [name, fmt.ms(median), '', '', `median of ${startupMs.length} starts: ${startupMs.map(fmt.ms).join(', ')}`];
}

type MeasuredLoad = LoadResult & { cpuUsPerRequest?: number; pgUsPerRequest?: number };

/**
 * A load step; given the server's process, also its CPU time per request (steadier than req/s on a
 * shared machine), and given whose backends, PostgreSQL's CPU per request for that server.
 */
async function load(
  options: Parameters<typeof runLoad>[0],
  server?: RunningProcess,
  pgOf?: 'service' | 'bench-baseline',
): Promise<MeasuredLoad> {
  const cpuBefore = server ? cpuTimeMs(server.child.pid!) : 0;
  const pgBefore = pgOf ? await backends.snapshot(pgOf) : null;
  const result = await runLoad({ durationSeconds: SECONDS, connections: 10, ...options });
  if (!server) return result;
  const requests = result.rps * SECONDS;
  const pgUsPerRequest = pgOf && pgBefore ? ((await backends.since(pgOf, pgBefore)) * 1000) / requests : undefined;
  return { ...result, cpuUsPerRequest: ((cpuTimeMs(server.child.pid!) - cpuBefore) * 1000) / requests, pgUsPerRequest };
}

/**
 * Both keys of each tenant polled for two seconds, unmeasured: a process just started (the Redis
 * one) or that has not seen a key yet answers its first requests slowly (JIT, caches, prepared
 * statements), and the first measured step would pay for it, which A B B A does not undo.
 */
async function warmUp(api: string, polls: Poll[]): Promise<void> {
  const both = polls.flatMap((p) => [p.limited, p.unlimited].map((headers) => ({ path: p.path, headers })));
  await runLoad({ url: api, method: 'POST', durationSeconds: 2, connections: 10, next: cycle(both, (p) => p) });
}

/**
 * Two load steps in the order A B B A, each figure the mean of its two: a process warms up and the
 * collector's work drifts through a run, and whichever went first would pay for it.
 */
async function sideBySide(a: () => Promise<MeasuredLoad>, b: () => Promise<MeasuredLoad>): Promise<[MeasuredLoad, MeasuredLoad]> {
  const a1 = await a();
  const b1 = await b();
  const b2 = await b();
  const a2 = await a();
  const mean = (x: MeasuredLoad, y: MeasuredLoad): MeasuredLoad => {
    const avg = (u?: number, v?: number) => (u === undefined || v === undefined ? undefined : (u + v) / 2);
    return {
      rps: (x.rps + y.rps) / 2,
      p50: Math.max(x.p50, y.p50),
      p99: Math.max(x.p99, y.p99),
      errors: x.errors + y.errors,
      cpuUsPerRequest: avg(x.cpuUsPerRequest, y.cpuUsPerRequest),
      pgUsPerRequest: avg(x.pgUsPerRequest, y.pgUsPerRequest),
    };
  };
  return [mean(a1, a2), mean(b1, b2)];
}

function compare(name: string, ours: MeasuredLoad, baseline: MeasuredLoad): number {
  const ratio = ours.rps / baseline.rps;
  const pg =
    ours.pgUsPerRequest !== undefined && baseline.pgUsPerRequest !== undefined
      ? `; PostgreSQL CPU ${us(ours.pgUsPerRequest)} vs ${us(baseline.pgUsPerRequest)}`
      : '';
  const cpu =
    ours.cpuUsPerRequest && baseline.cpuUsPerRequest
      ? `; CPU ${us(ours.cpuUsPerRequest)} vs ${us(baseline.cpuUsPerRequest)} per request${pg}`
      : '';
  results.push([name, fmt.rps(ours.rps), fmt.rps(baseline.rps), fmt.pct(ratio), `${latency(ours)} (baseline ${latency(baseline)})${cpu}`]);
  return ratio;
}

const us = (value: number) => `${Math.round(value)} µs`;

function target(name: string, goal: string, value: number, met: boolean, show: (v: number) => string = fmt.pct): void {
  targets.push({ name, goal, measured: show(value), met });
}

const latency = (r: LoadResult) => `p50 ${fmt.ms(r.p50)}, p99 ${fmt.ms(r.p99)}${r.errors ? `, ${r.errors} errors` : ''}`;

function cycle<T, R>(items: T[], pick: (item: T) => R): () => R {
  let i = 0;
  return () => pick(items[i++ % items.length]);
}

async function startSessions(api: string, headers: Record<string, string>, count: number, tenant = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let done = 0; done < count; done += 50) {
    const batch = Array.from({ length: Math.min(50, count - done) }, (_, i) =>
      fetch(`${api}/api/v1/auth/simulator/start`, { method: 'POST', headers, body: startBody(tenant, done + i) })
        .then((r) => r.json())
        .then((b) => (b as { sessionId: string }).sessionId),
    );
    ids.push(...(await Promise.all(batch)));
  }
  return ids;
}

async function pendingSessions(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pending: number }>(`SELECT count(*)::int AS pending FROM sessions WHERE status = 'pending'`);
    return rows[0].pending;
  } finally {
    await client.end();
  }
}

async function endPendingSessions(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`UPDATE sessions SET status = 'failed', hint_code = 'cancelled', completed_at = now() WHERE status = 'pending'`);
  } finally {
    await client.end();
  }
}

async function cli(env: Record<string, string>, ...args: string[]) {
  return JSON.parse((await run('node', [CLI, ...args], { env: { ...process.env, ...env } })).stdout);
}

/** Tenants with a limited and an unlimited key each; the first also holds the keys of the check-cost scenario. */
async function createKeys(env: Record<string, string>) {
  const tenants: { teamId: string; limitedKey: string; unlimitedKey: string }[] = [];
  for (let i = 0; i < TENANTS; i++) {
    const team = await cli(
      env,
      'teams',
      'create',
      '--name',
      `bench-${i}`,
      '--plan',
      'enterprise',
      '--subscription-until',
      '2099-01-01T00:00:00Z',
    );
    const limitedKey: string = (await cli(env, 'keys', 'create', '--team', team.id, '--env', 'test', ...LIMITED)).key;
    tenants.push({ teamId: team.id, limitedKey, unlimitedKey: (await cli(env, 'keys', 'create', '--team', team.id, '--env', 'test')).key });
  }
  const teamId = tenants[0].teamId;
  const checkKeyIds: Record<number, string> = {};
  for (const limit of CHECK_LIMITS)
    checkKeyIds[limit] = (await cli(env, 'keys', 'create', '--team', teamId, '--env', 'test', '--per-minute', String(limit))).id;
  return { tenants, checkKeyIds };
}

async function postgres(): Promise<{ url: string; version: string } | null> {
  const client = new pg.Client({ connectionString: PG_SERVER, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return { url: PG_SERVER, version: `PostgreSQL ${rows[0].server_version} on 127.0.0.1` };
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function createDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `eidgw_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

function report(postgresVersion: string | null): void {
  const headers = ['scenario', 'eid-gateway', 'baseline', 'ratio', 'latency / note'];
  const targetRows = targets.map((t) => [t.name, t.goal, t.measured, t.met ? 'met' : 'MISSED']);
  console.log(`\n${textTable(headers, results)}\n\n${textTable(['target', 'goal', 'measured', ''], targetRows)}\n`);
  if (ONLY) return;
  const doc = [
    '# Benchmarks',
    '',
    `Produced by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}; ${SECONDS} s per load step, 10 connections, load generated by autocannon in a separate process on the same machine.`,
    'Only ratios measured side by side in the same run are comparable: the machine is shared and noisy.',
    `Start and poll use ${TENANTS} tenants, each with its own key limited as a paying customer's is (per minute 10,000,000, monthly`,
    '100,000,000, 1,000 client IPs: never reached), beside an unlimited key; start bodies carry text to show, a return URL and',
    "metadata. CPU per request is the process's user + system time over the step; PostgreSQL CPU is that of the backends serving",
    'the service (or the baseline), read from /proc (background writers not counted). The rate-limit check alone calls the',
    'stores of the service (`PostgresQuotaStore`, `RedisQuotaStore`) from 10 callers on a key per limit (bench/rate-limit-check.ts).',
    '',
    '## Machine',
    '',
    ...machine(postgresVersion),
    '',
    '## Results',
    '',
    markdownTable(headers, results),
    '',
    '## Targets',
    '',
    markdownTable(['target', 'goal', 'measured', ''], targetRows),
    '',
    'QR rendering per frame and the kiosk fleet scenario (1,000 screens on one process) are measured by the',
    'last two steps of `npm run bench` (`bench/qr-render.bench.ts`, `bench/kiosk-fleet.bench.ts`); their',
    'figures and method are in [benchmarks-qr.md](benchmarks-qr.md). The budgets are in [performance.md](performance.md); what was measured and changed',
    'to get here, before and after, in [notes/performance-lab.md](notes/performance-lab.md).',
    '',
  ].join('\n');
  void writeFile('docs/benchmarks.md', doc);
}

await main();
