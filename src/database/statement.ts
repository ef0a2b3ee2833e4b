import { execute, type Db, type Rows } from './sql-execution.js';

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
/** A row as a statement answers it: its snake_case columns as camelCase properties. */
export type Camelized<Row> = { [K in keyof Row as Camel<K & string>]: Row[K] };

/** The row a statement answers, for the signatures of the methods that hand it on. */
export type RowOf<S> = S extends Statement<never[], infer Row> ? Camelized<Row> : never;

const defined = new Set<string>();

/** The text of every statement defined so far, for the test that prepares them all against the migrated schema. */
export const definedStatements = (): ReadonlySet<string> => defined;

/** Adds SQL built at run time from fixed parts (PreparedSelect's) to what that test prepares. */
export function registerStatement(sql: string): void {
  defined.add(sql);
}

/**
 * One SQL statement, declared once at module level with the types of its parameters and of the row
 * it answers (as PostgreSQL names the columns); see docs/architecture.md, "Data access".
 */
export class Statement<Params extends unknown[], Row extends object> {
  constructor(
    readonly sql: string,
    private readonly prepared: boolean,
  ) {
    registerStatement(sql);
  }

  async run(db: Db, ...params: Params): Promise<Rows<Camelized<Row>>> {
    const result = await execute<Record<string, unknown>>(db, this.sql, params, this.prepared);
    return { rows: result.rows.map((row) => camelize(row) as Camelized<Row>), rowCount: result.rowCount };
  }
}

/**
 * `statement<[id: string, now: Date], { hint_code: string | null }>(sql)`: a statement taking those
 * parameters and answering rows with `hintCode`. `prepare` for the hot ones (docs/performance.md).
 */
export function statement<Params extends unknown[], Row extends object = Record<never, never>>(
  sql: string,
  options: { prepare?: boolean } = {},
): Statement<Params, Row> {
  return new Statement<Params, Row>(sql, options.prepare ?? false);
}

const camelNames = new Map<string, string>();

function camelName(column: string): string {
  let name = camelNames.get(column);
  if (name === undefined) {
    name = column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
    camelNames.set(column, name);
  }
  return name;
}

/**
 * The row with camelCase properties. A row whose columns are named so already (`order_ref AS "orderRef"`)
 * is answered as it is, not copied: the collector's claim names its columns so (docs/performance.md).
 */
function camelize(row: Record<string, unknown>): Record<string, unknown> {
  let renamed = false;
  for (const column in row) if (camelName(column) !== column) renamed = true;
  if (!renamed) return row;
  const out: Record<string, unknown> = {};
  for (const column in row) out[camelName(column)] = row[column];
  return out;
}
