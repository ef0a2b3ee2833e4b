import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

/** Where SQL runs: a DataSource (its pool), or an EntityManager (inside a transaction, that transaction's connection). */
export type Db = DataSource | EntityManager;

/** TypeORM's node-postgres pool. TypeORM types it `any`; this is the one place that reads it. */
export function postgresPool(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
}

/**
 * Runs SQL on node-postgres directly, past TypeORM's query runner (which allocates a runner and
 * broadcasts events on every call), but through TypeORM's logger, so `logging` still shows every
 * statement. `prepare`: a named prepared statement, parsed and planned once per connection instead of
 * on every call, which is most of a primary-key read's cost; the name is derived from the text, so
 * one name always means one statement. (A pooler in transaction mode needs protocol-level prepared
 * statements for this: PgBouncer 1.21 or later, docs/operations.md.)
 */
export async function execute<Row extends QueryResultRow>(
  db: Db,
  text: string,
  values: unknown[],
  prepare = false,
): Promise<QueryResult<Row>> {
  const manager = db instanceof DataSource ? db.manager : db;
  const { logger } = manager.dataSource;
  const runner = manager.queryRunner;
  if (runner?.isReleased) throw new Error('The transaction of this EntityManager has ended');
  const client: Pool | PoolClient = runner ? ((await runner.connect()) as PoolClient) : postgresPool(manager.dataSource);
  logger.logQuery(text, values);
  try {
    return await client.query<Row>(prepare ? { name: statementName(text), text, values } : { text, values });
  } catch (error) {
    logger.logQueryError(error as Error, text, values);
    throw error;
  }
}

const names = new Map<string, string>();

function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `eidgw_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}
