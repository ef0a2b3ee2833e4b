import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { CoalescingWriter } from './coalescing-writer.js';
import { EntityInsert, MAX_PARAMETERS, type PendingRow } from './entity-insert.js';
import { execute } from './sql-execution.js';

/**
 * Inserts the rows concurrent requests write into one table as one multi-row INSERT (CoalescingWriter):
 * each caller's promise settles when its row is committed, so nothing is answered before it is durable.
 * A row may bring rows of other tables written with it (a provider's order with its session): they
 * go into the same statement as data-modifying CTEs, so a row and its companions are committed together
 * or not at all, in one round trip (docs/performance.md, "Statements and writes").
 */
export class InsertBatcher<T extends ObjectLiteral> {
  private readonly rows: EntityInsert<T>;
  private readonly writer: CoalescingWriter<PendingRow[], void>;
  /** Statements by the row count of each of their tables, built once per shape. */
  private readonly statements = new Map<string, string>();

  constructor(
    private readonly dataSource: DataSource,
    entity: EntityTarget<T>,
  ) {
    this.rows = new EntityInsert(dataSource, entity);
    this.writer = new CoalescingWriter(async (items) => {
      for (const chunk of withinParameterLimit(items)) await this.write(chunk.flat());
      return items.map(() => undefined);
    }, this.rows.maxRows);
  }

  /** Resolves once the entity's row and its companions are committed. */
  insert(entity: T, companions: readonly PendingRow[] = []): Promise<void> {
    return this.writer.submit([this.rows.rowOf(entity), ...companions]);
  }

  /** The entity as a companion for another batcher's row (insert's `companions`). */
  rowOf(entity: T): PendingRow {
    return this.rows.rowOf(entity);
  }

  /** One statement: this table's rows as the INSERT, each other table's as a CTE before it. */
  private async write(rows: PendingRow[]): Promise<void> {
    const byTable = new Map<EntityInsert<ObjectLiteral>, unknown[][]>([[this.rows, []]]);
    for (const row of rows) {
      const values = byTable.get(row.into);
      if (values) values.push(row.values);
      else byTable.set(row.into, [row.values]);
    }
    const shape = [...byTable].map(([into, values]) => `${into.table}:${values.length}`).join(',');
    let sql = this.statements.get(shape);
    if (!sql) {
      sql = statementOf([...byTable].map(([into, values]) => ({ into, rows: values.length })));
      this.statements.set(shape, sql);
    }
    await execute(
      this.dataSource,
      sql,
      [...byTable.values()].flatMap((values) => values.flat()),
    );
  }
}

/** The main table's INSERT last, the others as CTEs (PostgreSQL runs each to completion, read or not), parameters in order. */
function statementOf(tables: { into: EntityInsert<ObjectLiteral>; rows: number }[]): string {
  let first = 1;
  const inserts = tables.map(({ into, rows }) => {
    const sql = into.sqlFor(rows, first);
    first += rows * into.width;
    return sql;
  });
  const [main, ...companions] = inserts;
  return companions.length ? `WITH ${companions.map((sql, i) => `w${i} AS (${sql})`).join(', ')} ${main}` : main;
}

/** Items (a row with its companions) in runs whose parameters stay within PostgreSQL's limit; an item is never split. */
function* withinParameterLimit(items: PendingRow[][]): Generator<PendingRow[][]> {
  let run: PendingRow[][] = [];
  let parameters = 0;
  for (const item of items) {
    const width = item.reduce((sum, row) => sum + row.values.length, 0);
    if (run.length && parameters + width > MAX_PARAMETERS) {
      yield run;
      run = [];
      parameters = 0;
    }
    run.push(item);
    parameters += width;
  }
  if (run.length) yield run;
}
