import { isDatabaseUnavailable } from './database-unavailable.js';

interface Waiting<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * Writes that concurrent callers make, coalesced: while one batch is on its way to the database, the
 * items that arrive queue up and go together in the next. An idle writer sends an item at once (a
 * batch of one); under load a round trip carries many. Each caller's promise settles with its own
 * item's result, once its batch is committed. A failing batch is retried item by item, so one bad
 * item (a row whose foreign key vanished meanwhile) fails alone. A batch that fails because the
 * database is away or hung fails with every item queued behind it, at once: each retry would wait out
 * the same deadline, and in a partition three concurrent starts answered their 503 after 9 s instead
 * of within REQUEST_TIMEOUT (docs/reliability.md).
 */
export class CoalescingWriter<Item, Result> {
  private queue: Waiting<Item, Result>[] = [];
  private writing = false;

  /** `write` answers one result per item, in the items' order. */
  constructor(
    private readonly write: (items: Item[]) => Promise<Result[]>,
    private readonly maxBatch: number,
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const results = await this.write(batch.map((waiting) => waiting.item));
          batch.forEach((waiting, i) => waiting.resolve(results[i]));
        } catch (error) {
          if (isDatabaseUnavailable(error)) for (const waiting of [...batch, ...this.queue.splice(0)]) waiting.reject(error);
          else if (batch.length === 1) batch[0].reject(error);
          else
            await Promise.all(
              batch.map((waiting) =>
                this.write([waiting.item]).then(
                  ([result]) => waiting.resolve(result),
                  (error: unknown) => waiting.reject(error),
                ),
              ),
            );
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
