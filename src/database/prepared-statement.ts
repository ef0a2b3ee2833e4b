import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * Runs one statement as a named prepared statement on TypeORM's own connection pool, outside any
 * transaction: PostgreSQL parses and plans it once per connection instead of on every call, which
 * is most of its cost for a primary-key read. The name is derived from the text, so one name always
 * means one statement. (A pooler in transaction mode needs protocol-level prepared statements for
 * this: PgBouncer 1.21 or later, docs/operations.md.)
 */
export async function queryPrepared<Row>(dataSource: DataSource, text: string, values: unknown[]): Promise<Row[]> {
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const result = await pool.query({ name: statementName(text), text, values });
  return result.rows as Row[];
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
