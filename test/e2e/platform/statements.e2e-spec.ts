import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataSource } from 'typeorm';
import { definedStatements, statement } from '../../../src/database/statement.js';
import { useE2eApp } from '../../support/e2e.js';

const SRC = fileURLToPath(new URL('../../../src', import.meta.url));

/** Every module under src/ that declares a statement. */
async function declaringModules(): Promise<string[]> {
  const files = (await readdir(SRC, { recursive: true })).filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'));
  const declaring: string[] = [];
  for (const file of files) if (/\bstatement</.test(await readFile(join(SRC, file), 'utf8'))) declaring.push(join(SRC, file));
  return declaring;
}

// docs/architecture.md, "Data access": every statement of the service is prepared against the migrated
// schema, so a table or column a migration renamed, or a parameter whose type PostgreSQL cannot tell,
// fails here and not in production.
describe('SQL statements', () => {
  const e2e = useE2eApp({ stopBackgroundJobs: true });

  it('should prepare every declared statement on the migrated database', async () => {
    // The app has imported the modules it uses; this imports the rest (a store of a backend not configured here).
    const modules = await declaringModules();
    expect(modules.length).toBeGreaterThan(15);
    for (const module of modules) await import(module);
    const runner = e2e.app.get(DataSource).createQueryRunner();
    const failures: string[] = [];
    try {
      // PREPARE and DEALLOCATE on one connection.
      await runner.connect();
      for (const sql of definedStatements()) {
        try {
          await runner.query(`PREPARE eidgw_statement_check AS ${sql}`);
          await runner.query('DEALLOCATE eidgw_statement_check');
        } catch (error) {
          failures.push(`${(error as Error).message}: ${sql}`);
        }
      }
    } finally {
      await runner.release();
    }
    expect(failures).toEqual([]);
    expect(definedStatements().size).toBeGreaterThan(modules.length);
  });

  it('should fail to prepare a statement on a column the schema does not have', async () => {
    const runner = e2e.app.get(DataSource).createQueryRunner();
    try {
      await expect(runner.query('PREPARE eidgw_statement_check AS SELECT no_such_column FROM sessions WHERE id = $1')).rejects.toThrow(
        /no_such_column/,
      );
    } finally {
      await runner.release();
    }
  });

  it('should answer camelCase rows and their count, on the pool and on the connection of a transaction', async () => {
    const settings = statement<[count: number], { app_name: string; row_number: number }>(
      `SELECT current_setting('application_name') AS app_name, g AS row_number FROM generate_series(1, $1) g`,
    );
    const dataSource = e2e.app.get(DataSource);
    const outside = await settings.run(dataSource, 2);
    expect(outside.rowCount).toBe(2);
    expect(outside.rows.map((row) => row.rowNumber)).toEqual([1, 2]);
    expect(outside.rows[0].appName).not.toBe('in-transaction');
    const inside = await dataSource.transaction(async (manager) => {
      await manager.query(`SET LOCAL application_name = 'in-transaction'`);
      return settings.run(manager, 1);
    });
    expect(inside.rows).toEqual([{ appName: 'in-transaction', rowNumber: 1 }]);
  });
});
