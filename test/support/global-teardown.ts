import { Client } from 'pg';

const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Drops the databases the run created (a crashed file leaves its copy behind otherwise). */
export default async function globalTeardown(): Promise<void> {
  if (process.env.EIDGW_TEST_POSTGRES !== 'true') return;
  const client = new Client({ connectionString: SERVER_URL });
  client.on('error', () => undefined); // a terminated idle backend must not crash jest
  await client.connect();
  try {
    const prefix = `eidgw_${process.env.EIDGW_TEST_RUN}_`;
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
