import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';

// PostgreSQL takes at most 65,535 parameters per statement; batches stay far below.
const MAX_ROWS = 250;

interface PendingRow {
  values: unknown[];
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Inserts the rows concurrent requests write into one table as one multi-row INSERT: while a batch is
 * on its way to the database, the rows that arrive queue up and go together in the next. An idle
 * service sends each row at once (a batch of one); under load a round trip carries many rows. Each
 * caller's promise settles when its row is committed, so nothing is answered before it is durable.
 * Values pass through TypeORM's own column metadata and driver, as its insert() would write them;
 * every column is written, so give each a value (insert() would use the default for a missing one).
 */
export class InsertBatcher<T extends ObjectLiteral> {
  private readonly columns: ColumnMetadata[];
  private readonly head: string;
  private readonly statements = new Map<number, string>();
  private queue: PendingRow[] = [];
  private flushing = false;

  constructor(
    private readonly dataSource: DataSource,
    entity: EntityTarget<T>,
  ) {
    const metadata = dataSource.getMetadata(entity);
    this.columns = metadata.columns;
    this.head = `INSERT INTO "${metadata.tableName}" (${this.columns.map((column) => `"${column.databaseName}"`).join(', ')}) VALUES `;
  }

  insert(entity: T): Promise<void> {
    const values = this.columns.map((column) => this.dataSource.driver.preparePersistentValue(column.getEntityValue(entity), column));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ values, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_ROWS);
        try {
          await this.write(batch);
          for (const row of batch) row.resolve();
        } catch (error) {
          if (batch.length === 1) batch[0].reject(error);
          // One bad row (a foreign key that vanished meanwhile) must not fail the others: each alone.
          else await Promise.all(batch.map((row) => this.write([row]).then(row.resolve, row.reject)));
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private write(batch: PendingRow[]): Promise<unknown> {
    return this.dataSource.query(this.statementFor(batch.length), batch.flatMap((row) => row.values));
  }

  /** The statement for `rows` rows, built once per size. */
  private statementFor(rows: number): string {
    let sql = this.statements.get(rows);
    if (!sql) {
      const width = this.columns.length;
      const tuples = Array.from({ length: rows }, (_, row) => `(${this.columns.map((_, column) => `$${row * width + column + 1}`).join(', ')})`);
      sql = this.head + tuples.join(', ');
      this.statements.set(rows, sql);
    }
    return sql;
  }
}
