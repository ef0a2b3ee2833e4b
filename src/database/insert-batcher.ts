import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { EntityInsert } from './entity-insert.js';

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
 */
export class InsertBatcher<T extends ObjectLiteral> {
  private readonly rows: EntityInsert<T>;
  private queue: PendingRow[] = [];
  private flushing = false;

  constructor(
    private readonly dataSource: DataSource,
    entity: EntityTarget<T>,
  ) {
    this.rows = new EntityInsert(dataSource, entity);
  }

  insert(entity: T): Promise<void> {
    const values = this.rows.valuesOf(entity);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ values, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.rows.maxRows);
        try {
          await this.rows.insertValues(this.dataSource, batch.map((row) => row.values));
          for (const row of batch) row.resolve();
        } catch (error) {
          if (batch.length === 1) batch[0].reject(error);
          // One bad row (a foreign key that vanished meanwhile) must not fail the others: each alone.
          else await Promise.all(batch.map((row) => this.rows.insertValues(this.dataSource, [row.values]).then(row.resolve, row.reject)));
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
