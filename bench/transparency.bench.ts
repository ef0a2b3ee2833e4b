// CPU per leaf of the transparency log (docs/transparency.md): the enqueue a session's end adds to its
// transaction, and the publish that appends the queue and signs a tree head, beside the same transaction
// without the enqueue. CPU is this process's plus its PostgreSQL backends', per leaf; rounds interleave,
// medians reported. Compare a leaf with a start's CPU in the same `npm run bench` (docs/performance.md).
// Run: npm run bench:transparency (builds first). Needs PostgreSQL (BENCH_DATABASE_URL).
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { generateKeyPair } from 'jose';
import pg from 'pg';
import { SystemClock } from '../src/common/clock/clock.js';
import type { TokensConfig } from '../src/config/tokens.config.js';
import { createDataSource } from '../src/database/data-source.js';
import { ENTITIES } from '../src/app.entities.js';
import { runMigrationsLocked } from '../src/database/migrate.js';
import type { SigningKeysService } from '../src/tokens/signing-keys.service.js';
import { TransparencyLog } from '../src/transparency/transparency-log.service.js';
import { TransparencyLogStore } from '../src/transparency/transparency-log.store.js';
import { TreeHeadSigner } from '../src/transparency/tree-head-signer.js';
import { PostgresBackendCpu } from './lib/postgres-cpu.js';
import { printSection } from './lib/report.js';

const PG_SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const N = Number(process.env.N ?? 200);
const ROUNDS = 5;
/** Sessions that end between two publishes when the job runs under load. */
const BATCH = 100;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const token = () => `eyJhbGciOiJFUzI1NiJ9.${randomBytes(300).toString('base64url')}.${randomBytes(64).toString('base64url')}`;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_SERVER, connectionTimeoutMillis: 2_000 });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

async function main(): Promise<void> {
  const name = `eidgw_bench_tl_${randomBytes(4).toString('hex')}`;
  try {
    await admin(`CREATE DATABASE ${name}`);
  } catch {
    console.log(`No PostgreSQL reachable at ${PG_SERVER} (BENCH_DATABASE_URL): the transparency bench is skipped.`);
    return;
  }
  const url = new URL(PG_SERVER);
  url.pathname = `/${name}`;
  const dataSource = await createDataSource({ entities: ENTITIES, url: url.toString(), dataDir: '/nonexistent', poolSize: 2 });
  const backends = new PostgresBackendCpu(url.toString());
  try {
    await runMigrationsLocked(dataSource);
    await backends.connect();
    // The service's active key, as SigningKeysService answers it (its read of the key row is left out).
    const { privateKey } = await generateKeyPair('ES256');
    const keys = { activeKey: async () => ({ alg: 'ES256', kid: 'bench', privateKey }) };
    const signer = new TreeHeadSigner(keys as unknown as SigningKeysService, { issuer: 'https://bench.example' } as TokensConfig);
    const log = new TransparencyLog(new TransparencyLogStore(dataSource), signer, new SystemClock());
    const now = new Date();
    await log.publish(true);

    // Each path handles `leaves` leaves per call.
    const paths: { name: string; leaves: number; run: () => Promise<unknown> }[] = [
      {
        name: 'baseline: a transaction of one statement (BEGIN, one small SELECT, COMMIT)',
        leaves: 1,
        run: () => dataSource.transaction((manager) => manager.query('SELECT $1::bytea', [randomBytes(32)])),
      },
      {
        name: 'enqueue: the same transaction with one leaf queued (a session ending alone)',
        leaves: 1,
        run: () =>
          dataSource.transaction(async (manager) => {
            await manager.query('SELECT $1::bytea', [randomBytes(32)]);
            await log.enqueue(manager, [token()], now);
          }),
      },
      {
        name: 'publish after every leaf (append one, sign a head)',
        leaves: 1,
        run: async () => {
          await dataSource.transaction((manager) => log.enqueue(manager, [token()], now));
          await log.publish(true);
        },
      },
      {
        name: `publish after ${BATCH} leaves (the job under load), per leaf`,
        leaves: BATCH,
        run: async () => {
          await dataSource.transaction((manager) => log.enqueue(manager, Array.from({ length: BATCH }, token), now));
          await log.publish(true);
        },
      },
    ];
    const measure = async (path: (typeof paths)[number], calls: number) => {
      const before = process.cpuUsage();
      const backendsBefore = await backends.snapshot('service');
      for (let i = 0; i < calls; i++) await path.run();
      const used = process.cpuUsage(before);
      const postgresMs = await backends.since('service', backendsBefore);
      return ((used.user + used.system) / 1000 + postgresMs) / (calls * path.leaves);
    };
    const callsOf = (path: (typeof paths)[number]) => Math.max(5, Math.round(N / path.leaves));
    for (const path of paths) await measure(path, 5);
    const samples = paths.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round++)
      for (const [i, path] of paths.entries()) samples[i].push(await measure(path, callsOf(path)));
    const cost = samples.map(median);
    const perSession = cost[1] - cost[0] + cost[3];
    await printSection('Transparency log', [
      `Transparency log, ${ROUNDS} interleaved rounds, median CPU per leaf (this process and its PostgreSQL backends; Node ${process.version}).`,
      '',
      '| path | CPU µs per leaf |',
      '|---|---:|',
      ...paths.map((p, i) => `| ${p.name} | ${Math.round(cost[i] * 1000)} |`),
      '',
      `A session's leaf: the enqueue's share of its transaction (${Math.round((cost[1] - cost[0]) * 1000)} µs) and its share of a ` +
        `publish of ${BATCH} (${Math.round(cost[3] * 1000)} µs), **${Math.round(perSession * 1000)} µs**: compare the start's CPU per request ` +
        '(service + PostgreSQL) in the Results table above (budget ≤ 5%).',
    ]);
  } finally {
    await backends.close().catch(() => undefined);
    await dataSource.destroy();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

await main();
