import { createHash, randomBytes } from 'node:crypto';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { sharedRunnerOf } from './unit-of-work.js';

/** Where SQL runs: a DataSource (its pool), or an EntityManager (inside a transaction, that transaction's connection). */
export type Db = DataSource | EntityManager;

export interface Rows<Row> {
  rows: Row[];
  /** Rows the statement changed (UPDATE, DELETE, INSERT) or answered (SELECT), whatever the command. */
  rowCount: number;
}

/** TypeORM's node-postgres pool. TypeORM types it `any`; this is the one place that reads it. */
export function postgresPool(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
}

/**
 * Runs SQL through TypeORM's query runner, as `query()` does, but answers rows and their count alike
 * for every command. `prepare`: a named prepared statement on node-postgres directly (TypeORM has
 * none), parsed and planned once per connection instead of on every call, which is most of a
 * primary-key read's cost; the name is derived from the text, so one name always means one statement.
 * (A pooler in transaction mode needs protocol-level prepared statements for this: PgBouncer 1.21 or
 * later, docs/operations.md.)
 */
export async function execute<Row extends QueryResultRow>(db: Db, text: string, values: unknown[], prepare = false): Promise<Rows<Row>> {
  const manager = db instanceof DataSource ? db.manager : db;
  if (prepare) return executePrepared(manager, text, values);
  const runner = manager.queryRunner ?? manager.dataSource.createQueryRunner();
  try {
    const { records, affected } = await runner.query(text, values, true);
    return { rows: records as Row[], rowCount: affected ?? records.length };
  } finally {
    if (runner !== manager.queryRunner) await runner.release();
  }
}

async function executePrepared<Row extends QueryResultRow>(manager: EntityManager, text: string, values: unknown[]): Promise<Rows<Row>> {
  const runner = manager.queryRunner ?? sharedRunnerOf(manager.dataSource);
  if (runner?.isReleased) throw new Error('The transaction of this EntityManager has ended');
  const client: Pool | PoolClient = runner ? ((await runner.connect()) as PoolClient) : postgresPool(manager.dataSource);
  // Through TypeORM's logger, as its own statements: its `logging` option shows these too.
  const { logger } = manager.dataSource;
  logger.logQuery(text, values);
  try {
    const result = await client.query<Row>({ name: statementName(manager.dataSource, text), text, values });
    return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
  } catch (error) {
    logger.logQueryError(error as Error, text, values);
    throw error;
  }
}

/**
 * Each data source names its statements apart (a random prefix): the CLI beside a server on the
 * embedded database shares its one PGlite session (docs/operations.md), where the server's statement
 * of the same text already holds the name, and node-postgres, which knows only its own connections,
 * would prepare it again and fail.
 */
const statementNames = new WeakMap<DataSource, { prefix: string; names: Map<string, string> }>();

function statementName(dataSource: DataSource, text: string): string {
  let own = statementNames.get(dataSource);
  if (!own) {
    own = { prefix: `eidgw_${randomBytes(4).toString('hex')}_`, names: new Map() };
    statementNames.set(dataSource, own);
  }
  let name = own.names.get(text);
  if (!name) {
    name = own.prefix + createHash('sha256').update(text).digest('hex').slice(0, 24);
    own.names.set(text, name);
  }
  return name;
}
