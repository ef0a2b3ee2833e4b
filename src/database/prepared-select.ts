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
 * thousands of times a second and needs a few columns then allocates for those alone.
 */
export class PreparedSelect<T extends ObjectLiteral, K extends keyof T & string = keyof T & string> {
  /** The columns read (every column of the entity unless `properties` was given), quoted. */
  readonly columnList: string;
  private readonly metadata: EntityMetadata;
  private readonly columns: ColumnMetadata[];
  private readonly sql: string;
  private readonly whole: boolean;

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
    this.sql = `SELECT ${this.columnList} FROM ${from ?? `"${this.metadata.tableName}"`} WHERE ${where}`;
    registerStatement(this.sql);
    registerStatement(`${this.sql} LIMIT 1`);
  }

  async one(parameters: unknown[]): Promise<Pick<T, K> | null> {
    const {
      rows: [row],
    } = await execute<Record<string, unknown>>(this.dataSource, `${this.sql} LIMIT 1`, parameters, true);
    return row ? this.hydrate(row) : null;
  }

  async many(parameters: unknown[]): Promise<Pick<T, K>[]> {
    const { rows } = await execute<Record<string, unknown>>(this.dataSource, this.sql, parameters, true);
    return rows.map((row) => this.hydrate(row));
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
