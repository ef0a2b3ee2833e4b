import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { ApiKeyLastUseStore } from './api-key-last-use.store.js';
import { LastUseBatch } from './last-use-batch.js';

/**
 * When each key last authenticated a request (docs/security.md, "Last used"): the request only notes
 * the use in memory; a flush writes what was noted, in one statement, off the request path.
 */
@Injectable()
export class ApiKeyLastUseService {
  private readonly logger = new Logger(ApiKeyLastUseService.name);
  private readonly batch = new LastUseBatch();
  private writing: Promise<void> | null = null;
  private failing = false;

  constructor(
    private readonly store: ApiKeyLastUseStore,
    private readonly clock: Clock,
  ) {}

  /** On the request path: no I/O, nothing awaited. */
  note(apiKeyId: string): void {
    this.batch.note(apiKeyId, this.clock.now());
  }

  /** Writes the uses noted so far. A failed write harms nothing else: its uses wait in memory for the next flush. */
  async flush(): Promise<void> {
    // One write at a time, so batches reach the database in the order they were taken.
    while (this.writing) await this.writing;
    const uses = this.batch.take(this.clock.now());
    if (uses.size === 0) return;
    this.writing = this.write(uses).finally(() => (this.writing = null));
    await this.writing;
  }

  private async write(uses: Map<string, Date>): Promise<void> {
    try {
      await this.store.record(uses);
      if (this.failing) this.logger.log('Recording when API keys were last used works again');
      this.failing = false;
    } catch (error) {
      this.batch.putBack(uses);
      // Once per outage at warn; the batch holds one entry per key, however long the outage lasts.
      const message = `Recording when ${uses.size} API keys were last used failed; retried at the next flush`;
      if (this.failing) this.logger.debug({ err: error }, message);
      else this.logger.warn({ err: error }, message);
      this.failing = true;
    }
  }
}
