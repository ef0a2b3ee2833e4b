// The OpenID front (docs/oidc.md) beside a bare oidc-provider on the same PostgreSQL, in one run with
// interleaved rounds (the machine is shared: compare ratios only): the token endpoint exchanging codes
// (client_secret_basic + PKCE) and userinfo with the access tokens it issued. Run: npm run bench:oidc.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { promisify } from 'node:util';
import pg from 'pg';
import { runLoad } from './lib/load.js';
import { cpuTimeMs, startProcess, startService, type RunningProcess } from './lib/processes.js';
import { printSection } from './lib/report.js';
import { CODE_VERIFIER, queriesSent, REDIRECT_URI, requestCodes } from './oidc/mint.js';

const PG_SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// Codes are single-use and live 60 s: each round mints its own, then exchanges them all.
const CODES = Number(process.env.BENCH_OIDC_CODES ?? 400);
const USERINFO_SECONDS = Number(process.env.BENCH_SECONDS ?? 1.5);
const ROUNDS = 3;
// BENCH_OIDC_PORT: the service's port (the bare provider's is the next), for runs beside another bench.
const OURS_PORT = Number(process.env.BENCH_OIDC_PORT ?? 3421);
const PORT = { ours: OURS_PORT, bare: OURS_PORT + 1 };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const run = promisify(execFile);
// BENCH_OIDC_PROFILE=<dir>: the service (and, in <dir>/bare, the bare provider) write CPU profiles when they stop (node --cpu-prof).
const PROFILE = process.env.BENCH_OIDC_PROFILE;

interface Target {
  label: string;
  server: RunningProcess;
  base: string;
  basic: string;
  tokens: string[];
  results: Record<'token' | 'userinfo', { rps: number[]; cpuUs: number[]; queries: number[]; p99: number[]; errors: number }>;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_SERVER, connectionTimeoutMillis: 2_000 });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

/** Runs one load against the target's process, keeping its rate and the CPU it spent per request. */
async function measure(target: Target, endpoint: 'token' | 'userinfo', options: Parameters<typeof runLoad>[0], record = true) {
  const pid = target.server.child.pid!;
  const queriesBefore = await queriesSent(target.server.child);
  const cpuBefore = cpuTimeMs(pid);
  const result = await runLoad(options);
  const cpuAfter = cpuTimeMs(pid);
  const requests = result.requests ?? 0;
  if (!record) return;
  const r = target.results[endpoint];
  r.rps.push(result.rps);
  r.cpuUs.push(((cpuAfter - cpuBefore) * 1000) / Math.max(1, requests));
  r.queries.push(((await queriesSent(target.server.child)) - queriesBefore) / Math.max(1, requests));
  r.p99.push(result.p99);
  r.errors += result.errors;
}

async function round(target: Target, codeCount: number, record = true): Promise<void> {
  const codes = await requestCodes(target.server.child, codeCount);
  let next = 0;
  await measure(
    target,
    'token',
    {
      url: `${target.base}/token`,
      method: 'POST',
      amount: codes.length,
      next: () => ({
        path: new URL(`${target.base}/token`).pathname,
        headers: { authorization: target.basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: codes[Math.min(next++, codes.length - 1)],
          redirect_uri: REDIRECT_URI,
          code_verifier: CODE_VERIFIER,
        }).toString(),
      }),
      onBody: (status, body) => {
        if (status === 200) target.tokens.push((JSON.parse(body) as { access_token: string }).access_token);
      },
    },
    record,
  );
  let i = 0;
  await measure(
    target,
    'userinfo',
    {
      url: `${target.base}/me`,
      durationSeconds: record ? USERINFO_SECONDS : 1,
      next: () => ({
        path: new URL(`${target.base}/me`).pathname,
        headers: { authorization: `Bearer ${target.tokens[i++ % target.tokens.length]}` },
      }),
    },
    record,
  );
}

async function main(): Promise<void> {
  const name = `eidgw_bench_oidc_${randomBytes(4).toString('hex')}`;
  try {
    await admin(`CREATE DATABASE ${name}`);
  } catch {
    console.log(`No PostgreSQL reachable at ${PG_SERVER} (BENCH_DATABASE_URL): the OpenID bench is skipped.`);
    return;
  }
  const url = new URL(PG_SERVER);
  url.pathname = `/${name}`;
  const env = {
    DATABASE_URL: url.toString(),
    PORT: String(PORT.ours),
    PUBLIC_BASE_URL: `http://127.0.0.1:${PORT.ours}`,
    LOG_LEVEL: 'warn',
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  const cli = async (...args: string[]) =>
    JSON.parse((await run('node', ['dist/src/cli.js', ...args], { env: { ...process.env, ...env } })).stdout) as Record<string, string>;
  const servers: RunningProcess[] = [];
  try {
    // The CLI migrates the fresh database, then the service starts on it.
    const team = await cli('teams', 'create', '--name', 'bench-oidc', '--plan', 'pro', '--subscription-until', '2099-01-01T00:00:00Z');
    const client = await cli('oidc-clients', 'create', '--team', team.id, '--name', 'Bench RP', '--redirect-uri', REDIRECT_URI);
    const clientEnv = {
      BENCH_CLIENT_ID: client.clientId,
      BENCH_CLIENT_SECRET: client.clientSecret,
      BENCH_CLIENT_SUBJECT_TYPE: client.subjectType,
    };
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}`;
    const ours = await startService(
      'dist/bench/oidc/service.js',
      { ...env, ...clientEnv },
      `${env.PUBLIC_BASE_URL}/health/ready`,
      120_000,
      PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : [],
    );
    servers.push(ours);
    const bareBase = `http://127.0.0.1:${PORT.bare}`;
    const bare = await startProcess(
      'dist/bench/oidc/bare-provider.js',
      { DATABASE_URL: env.DATABASE_URL, PORT: String(PORT.bare), ...clientEnv },
      `${bareBase}/.well-known/openid-configuration`,
      30_000,
      PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}/bare`] : [],
    );
    servers.push(bare);
    const empty = () => ({ rps: [], cpuUs: [], queries: [], p99: [], errors: 0 });
    const targets: Target[] = [
      {
        label: 'eid-gateway /oidc',
        server: ours,
        base: `${env.PUBLIC_BASE_URL}/oidc`,
        basic,
        tokens: [],
        results: { token: empty(), userinfo: empty() },
      },
      { label: 'bare oidc-provider', server: bare, base: bareBase, basic, tokens: [], results: { token: empty(), userinfo: empty() } },
    ];
    for (const target of targets) await round(target, 100, false);
    for (let r = 0; r < ROUNDS; r++) for (const target of targets) await round(target, CODES);
    const [o, b] = targets.map((t) => t.results);
    const row = (endpoint: 'token' | 'userinfo', label: string) => {
      const [or, br] = [o[endpoint], b[endpoint]];
      const [orps, brps, ocpu, bcpu] = [median(or.rps), median(br.rps), median(or.cpuUs), median(br.cpuUs)];
      return `| ${label} | ${Math.round(orps)} | ${Math.round(brps)} | **${(orps / brps).toFixed(2)}** | ${Math.round(ocpu)} µs | ${Math.round(bcpu)} µs | **${(bcpu / ocpu).toFixed(2)}** | ${median(or.queries).toFixed(1)} / ${median(br.queries).toFixed(1)} | ${median(or.p99)} / ${median(br.p99)} ms | ${or.errors} / ${br.errors} |`;
    };
    await printSection('OpenID front: token and userinfo against bare oidc-provider', [
      `${ROUNDS} interleaved rounds, 10 connections, from the same machine; medians. Token: ${CODES} code exchanges per round`,
      '(client_secret_basic, PKCE S256, scope `openid profile`); userinfo: GET /me for ' +
        `${USERINFO_SECONDS} s with the access tokens issued. CPU is the serving process's per request (PostgreSQL's not counted).`,
      `Load average at the end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')} (2 cores, shared).`,
      '',
      '| Endpoint | ours req/s | bare req/s | ratio | ours CPU/req | bare CPU/req | ratio (bare/ours) | SQL/req ours / bare | p99 ours / bare | non-2xx ours / bare |',
      '|---|---|---|---|---|---|---|---|---|---|',
      row('token', 'POST token (code exchange)'),
      row('userinfo', 'GET userinfo'),
    ]);
  } finally {
    for (const server of servers) await server.stop();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

await main();
