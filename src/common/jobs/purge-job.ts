import { Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { errorForLog } from '../logging/error-for-log.js';

/**
 * The shape of every scheduled purge (docs/architecture.md, "Stores and modules"): a job names what
 * it removes and how one run removes what is due, and schedules `purge()` with its own `@Interval`.
 * A run logs how many rows went; a failure is logged, never thrown, and the next run tries again;
 * the application's shutdown waits for the run in flight, so the pool never closes under it.
 */
export abstract class PurgeJob implements BeforeApplicationShutdown {
  protected readonly logger = new Logger(this.constructor.name);
  private inFlight: Promise<number> = Promise.resolve(0);

  /** What a run removes, for its log line: "audit entries past their retention". */
  protected abstract readonly subject: string;

  /** Deletes (or erases) what is due now; answers how many rows. */
  protected abstract purgeDue(): Promise<number>;

  /** One run; answers how many rows went (0 when it failed). */
  protected purge(): Promise<number> {
    this.inFlight = this.runLogged();
    return this.inFlight;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.inFlight;
  }

  private async runLogged(): Promise<number> {
    try {
      const purged = await this.purgeDue();
      if (purged > 0) this.logger.log({ purged }, `Purged ${this.subject}`);
      return purged;
    } catch (error) {
      this.logger.error({ err: errorForLog(error) }, `Purging ${this.subject} failed; the next run tries again`);
      return 0;
    }
  }
}
