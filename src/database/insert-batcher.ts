import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { CoalescingWriter } from './coalescing-writer.js';
import { EntityInsert } from './entity-insert.js';

/**
 * Inserts the rows concurrent requests write into one table as one multi-row INSERT (CoalescingWriter):
 * each caller's promise settles when its row is committed, so nothing is answered before it is durable.
 */
export class InsertBatcher<T extends ObjectLiteral> {
  private readonly rows: EntityInsert<T>;
  private readonly writer: CoalescingWriter<unknown[], void>;

  constructor(dataSource: DataSource, entity: EntityTarget<T>) {
    this.rows = new EntityInsert(dataSource, entity);
    this.writer = new CoalescingWriter(async (values) => {
      await this.rows.insertValues(dataSource, values);
      return values.map(() => undefined);
    }, this.rows.maxRows);
  }

  insert(entity: T): Promise<void> {
    return this.writer.submit(this.rows.valuesOf(entity));
  }
}
