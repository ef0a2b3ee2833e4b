import { Client } from 'pg';
import { ENTITIES } from '../../src/app.entities.js';
import { createDataSource } from '../../src/database/data-source.js';
import { runMigrationsLocked } from '../../src/database/migrate.js';

/** The PostgreSQL server tests use when one answers; otherwise tests run on the embedded PGlite. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Names a database of this test run (the global setup chose the run id). */
export const testDatabaseName = (suffix: string): string => `eidgw_${process.env.EIDGW_TEST_RUN ?? 'local'}_${suffix}`;
export const TEMPLATE_DATABASE = testDatabaseName('template');
// Serialises the template's creation between jest workers.
const TEMPLATE_LOCK = 0x7465_6d70;

export function databaseUrl(database: string): string {
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withServer<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_SERVER_URL, connectionTimeoutMillis: 2_000 });
  // A backend terminated while idle (a server restart, an administrator) reaches the client as an
  // 'error' event: without a listener that would crash the test worker; failed queries still reject.
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Set by the global setup: whether e2e tests run on real PostgreSQL. */
export const usingRealPostgres = (): boolean => process.env.EIDGW_TEST_POSTGRES === 'true';

/** Creates and migrates the template database once per run (the global setup dropped the old one). */
export async function ensureTemplate(): Promise<void> {
  await withServer(async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [TEMPLATE_DATABASE]);
      if (rowCount) return;
      await client.query(`CREATE DATABASE ${TEMPLATE_DATABASE}_building`);
      const dataSource = await createDataSource({
        entities: ENTITIES,
        url: databaseUrl(`${TEMPLATE_DATABASE}_building`),
        dataDir: '/nonexistent',
        poolSize: 2,
      });
      try {
        await runMigrationsLocked(dataSource);
      } finally {
        await dataSource.destroy();
      }
      await client.query(`ALTER DATABASE ${TEMPLATE_DATABASE}_building RENAME TO ${TEMPLATE_DATABASE}`);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
}

/** For tests of several service instances on one database: only a real server has several clients. */
export const itOnPostgres = (name: string, fn: () => Promise<void>, timeout?: number): void =>
  (usingRealPostgres() ? it : it.skip)(
    `${name}${usingRealPostgres() ? '' : ' (skipped: needs PostgreSQL; the embedded database serves one process)'}`,
    fn,
    timeout,
  );
