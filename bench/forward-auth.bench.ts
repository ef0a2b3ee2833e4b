// Forward-auth decisions per second (docs/forward-auth.md) beside a bare Fastify hello route and the
// service's own /health/live, in one run (the machine is noisy: compare ratios only). The service runs
// as `npm start` runs it, on PostgreSQL, with the example policy. Run: npm run bench:forward-auth.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import { runLoad, type LoadResult } from './lib/load.js';
import { cpuTimeMs, SERVICE_SCRIPT, startProcess, startService } from './lib/processes.js';
import { printSection } from './lib/report.js';

const PG_SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
// Interleaved rounds, medians reported: the machine is shared, and load from others comes and goes.
const ROUNDS = 3;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const PORT = { service: 3411, baseline: 3412 };
const run = promisify(execFile);

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_SERVER, connectionTimeoutMillis: 2_000 });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

async function main(): Promise<void> {
  const name = `eidgw_bench_fa_${randomBytes(4).toString('hex')}`;
  try {
    await admin(`CREATE DATABASE ${name}`);
  } catch {
    console.log(`No PostgreSQL reachable at ${PG_SERVER} (BENCH_DATABASE_URL): the forward-auth bench is skipped.`);
    return;
  }
  const url = new URL(PG_SERVER);
  url.pathname = `/${name}`;
  const env = {
    DATABASE_URL: url.toString(),
    PORT: String(PORT.service),
    LOG_LEVEL: 'warn',
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    FORWARD_AUTH_POLICY: 'deploy/forward-auth-policy.example.json',
  };
  const cli = async (...args: string[]) =>
    JSON.parse((await run('node', ['dist/src/cli.js', ...args], { env: { ...process.env, ...env } })).stdout) as Record<string, string>;
  const service = await startService(SERVICE_SCRIPT, env, `http://127.0.0.1:${PORT.service}/health/ready`, 120_000);
  const baseline = await startProcess(
    'dist/bench/baseline-server.js',
    { DATABASE_URL: env.DATABASE_URL, PORT: String(PORT.baseline) },
    `http://127.0.0.1:${PORT.baseline}/hello`,
  );
  try {
    const team = await cli(
      'teams',
      'create',
      '--name',
      'bench-forward-auth',
      '--plan',
      'pro',
      '--subscription-until',
      '2099-01-01T00:00:00Z',
    );
    const unlimited = (await cli('keys', 'create', '--team', team.id, '--env', 'test')).key;
    // A paying customer's key: every limit set, never reached here, so the allowance decides most requests in memory.
    const limited = (await cli('keys', 'create', '--team', team.id, '--env', 'test', '--per-minute', '10000000', '--monthly', '100000000'))
      .key;
    const decide = (key: string) => ({
      url: `http://127.0.0.1:${PORT.service}/forward-auth`,
      headers: {
        'x-original-method': 'POST',
        'x-original-uri': '/watchlists/42/events',
        'x-forwarded-for': '192.0.2.10',
        'x-api-key': key,
      },
    });
    const scenarios: { label: string; pid: number; options: Parameters<typeof runLoad>[0] }[] = [
      { label: 'bare Fastify: GET /hello', pid: baseline.child.pid!, options: { url: `http://127.0.0.1:${PORT.baseline}/hello` } },
      { label: 'eid-gateway: GET /health/live', pid: service.child.pid!, options: { url: `http://127.0.0.1:${PORT.service}/health/live` } },
      { label: 'forward-auth: unlimited key', pid: service.child.pid!, options: decide(unlimited) },
      { label: 'forward-auth: limited key (allowance)', pid: service.child.pid!, options: decide(limited) },
    ];
    // A short warm-up each, then interleaved rounds; the CPU the serving process spent per request is the
    // steadier figure on a shared machine, requests per second the one people ask for.
    for (const { options } of scenarios) await runLoad({ ...options, durationSeconds: 1 });
    const rounds = scenarios.map(() => ({ rps: [] as number[], cpuUs: [] as number[], p99: [] as number[], errors: 0 }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, { pid, options }] of scenarios.entries()) {
        const cpuBefore = cpuTimeMs(pid);
        const result: LoadResult = await runLoad({ ...options, durationSeconds: SECONDS });
        const requests = result.rps * SECONDS;
        rounds[i].rps.push(result.rps);
        rounds[i].cpuUs.push(((cpuTimeMs(pid) - cpuBefore) * 1000) / Math.max(1, requests));
        rounds[i].p99.push(result.p99);
        rounds[i].errors += result.errors;
      }
    }
    const hello = median(rounds[0].rps);
    await printSection('Forward-auth decisions', [
      `${ROUNDS} interleaved rounds of ${SECONDS} s per route, 10 connections, from the same machine; medians. The decision is`,
      "POST /watchlists/{id}/events of the example policy (feature `pro`); CPU is the serving process's per request.",
      '',
      '| Route | Requests/s | vs bare hello | CPU per request | p99 | non-2xx |',
      '|---|---|---|---|---|---|',
      ...scenarios.map(({ label }, i) => {
        const r = rounds[i];
        return `| ${label} | ${Math.round(median(r.rps))} | ${((median(r.rps) / hello) * 100).toFixed(0)}% | ${Math.round(median(r.cpuUs))} µs | ${median(r.p99)} ms | ${r.errors} |`;
      }),
    ]);
  } finally {
    await service.stop();
    await baseline.stop();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

await main();
