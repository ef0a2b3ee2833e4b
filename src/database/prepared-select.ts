import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata.js';
import { queryPrepared } from './prepared-statement.js';

/**
 * Whole entities by one fixed condition, for the hottest reads (a session by id on every poll and QR
 * frame, the collector's batches). TypeORM's find builds and escapes its query anew on each call,
 * which cost half of a poll's CPU; here the SQL is built once and runs as a prepared statement, and
 * rows are hydrated through TypeORM's own column metadata and driver, so types, transformers and
 * dates come out exactly as find returns them.
 */
export class PreparedSelect<T extends ObjectLiteral> {
  /** Every column of the entity, quoted, for a SELECT list or a RETURNING clause. */
  readonly columnList: string;
  private readonly metadata: EntityMetadata;
  private readonly columns: ColumnMetadata[];
  private readonly sql: string;

  /** `where` is SQL over the table's column names with $1… placeholders, e.g. `id = $1 AND team_id = $2`. */
  constructor(
    private readonly dataSource: DataSource,
    entity: EntityTarget<T>,
    where: string,
  ) {
    this.metadata = dataSource.getMetadata(entity);
    this.columns = this.metadata.columns;
    this.columnList = this.columns.map((column) => `"${column.databaseName}"`).join(', ');
    this.sql = `SELECT ${this.columnList} FROM "${this.metadata.tableName}" WHERE ${where}`;
  }

  async one(parameters: unknown[]): Promise<T | null> {
    const [row] = await queryPrepared<Record<string, unknown>>(this.dataSource, `${this.sql} LIMIT 1`, parameters);
    return row ? this.hydrate(row) : null;
  }

  async many(parameters: unknown[]): Promise<T[]> {
    const rows = await queryPrepared<Record<string, unknown>>(this.dataSource, this.sql, parameters);
    return rows.map((row) => this.hydrate(row));
  }

  /** An entity from a row that holds every column (see columnList). */
  hydrate(row: Record<string, unknown>): T {
    const entity = this.metadata.create() as T;
    for (const column of this.columns)
      column.setEntityValue(entity, this.dataSource.driver.prepareHydratedValue(row[column.databaseName], column));
    return entity;
  }
}
