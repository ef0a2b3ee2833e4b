import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata.js';

/**
 * Whole entities by one fixed condition, for the hottest reads (a session by id, on every poll and
 * QR frame). TypeORM's find builds and escapes its query anew on each call, which cost half of a
 * poll's CPU; here the SQL is built once, and rows are hydrated through TypeORM's own column
 * metadata and driver, so types, transformers and dates come out exactly as find returns them.
 */
export class PreparedSelect<T extends ObjectLiteral> {
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
    const select = this.columns.map((column) => `"${column.databaseName}"`).join(', ');
    this.sql = `SELECT ${select} FROM "${this.metadata.tableName}" WHERE ${where} LIMIT 1`;
  }

  async one(parameters: unknown[]): Promise<T | null> {
    const [row] = await this.dataSource.query<Record<string, unknown>[]>(this.sql, parameters);
    if (!row) return null;
    const entity = this.metadata.create() as T;
    for (const column of this.columns) column.setEntityValue(entity, this.dataSource.driver.prepareHydratedValue(row[column.databaseName], column));
    return entity;
  }
}
