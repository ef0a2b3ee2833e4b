import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata.js';
import { execute } from './sql-execution.js';
import { registerStatement } from './statement.js';

/**
 * Entities by one fixed condition, for the hottest reads (a session by id on every poll and QR frame,
 * the collector's batches). TypeORM's find builds and escapes its query anew on each call, which cost
 * half of a poll's CPU; here the SQL is built once and runs as a prepared statement, and rows are
 * hydrated through TypeORM's own column metadata and driver, so types, transformers and dates come out
 * exactly as find returns them. Given `properties`, only those columns are read: a reader that runs
 * thousands of times a second and needs a few columns then allocates for those alone; and when each of
 * them is one node-postgres answers as TypeORM hydrates it, the rows are answered as node-postgres
 * builds them, with the properties' names, not copied (docs/performance.md, "Memory at 10,000 pending").
 */
export class PreparedSelect<T extends ObjectLiteral, K extends keyof T & string = keyof T & string> {
  /** The columns read (every column of the entity unless `properties` was given), quoted. */
  readonly columnList: string;
  private readonly metadata: EntityMetadata;
  private readonly columns: ColumnMetadata[];
  private readonly sql: string;
  private readonly whole: boolean;
  /** Rows come from node-postgres with the properties' names and as hydration would leave them. */
  private readonly asRead: boolean;

  /**
   * `where` is SQL over the table's column names with $1… placeholders, e.g. `id = $1 AND team_id = $2`;
   * `from` replaces the table where the rows come out of a join that yields its columns unqualified.
   */
  constructor(
    private readonly dataSource: DataSource,
    entity: EntityTarget<T>,
    where: string,
    properties?: readonly K[],
    from?: string,
  ) {
    this.metadata = dataSource.getMetadata(entity);
    this.whole = !properties;
    this.columns = properties?.map((property) => this.columnOf(property)) ?? this.metadata.columns;
    this.columnList = this.columns.map((column) => `"${column.databaseName}"`).join(', ');
    this.asRead = !this.whole && this.columns.every(hydratesAsRead);
    const selected = this.asRead
      ? this.columns.map((column) => `"${column.databaseName}" AS "${column.propertyName}"`).join(', ')
      : this.columnList;
    this.sql = `SELECT ${selected} FROM ${from ?? `"${this.metadata.tableName}"`} WHERE ${where}`;
    registerStatement(this.sql);
    registerStatement(`${this.sql} LIMIT 1`);
  }

  async one(parameters: unknown[]): Promise<Pick<T, K> | null> {
    const {
      rows: [row],
    } = await execute<Record<string, unknown>>(this.dataSource, `${this.sql} LIMIT 1`, parameters, true);
    if (!row) return null;
    return this.asRead ? (row as Pick<T, K>) : this.hydrate(row);
  }

  async many(parameters: unknown[]): Promise<Pick<T, K>[]> {
    const { rows } = await execute<Record<string, unknown>>(this.dataSource, this.sql, parameters, true);
    return this.asRead ? (rows as Pick<T, K>[]) : rows.map((row) => this.hydrate(row));
  }

  /**
   * An entity from a row that holds the columns read. With `properties`, a plain object of those
   * alone: an instance of the entity's class would carry a slot for every column.
   */
  private hydrate(row: Record<string, unknown>): Pick<T, K> {
    const entity = (this.whole ? this.metadata.create() : {}) as T;
    for (const column of this.columns)
      column.setEntityValue(entity, this.dataSource.driver.prepareHydratedValue(row[column.databaseName], column));
    return entity;
  }

  private columnOf(property: string): ColumnMetadata {
    const column = this.metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${this.metadata.name} has no column ${property}`);
    return column;
  }
}

/**
 * Column types that TypeORM's PostgreSQL driver hydrates as node-postgres parses them (a string, a
 * Buffer, the Date of src/database/timestamptz-parser.ts), so that a row needs no copy: its
 * `prepareHydratedValue` changes none of them, and a transformer or an embedded column would.
 */
const TYPES_AS_READ = new Set<unknown>([
  'text',
  'varchar',
  'character varying',
  'uuid',
  'bytea',
  'timestamptz',
  'timestamp with time zone',
]);

function hydratesAsRead(column: ColumnMetadata): boolean {
  return TYPES_AS_READ.has(column.type) && !column.transformer && !column.embeddedMetadata && !column.isArray && !column.relationMetadata;
}
