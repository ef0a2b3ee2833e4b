import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { COLLECT_INTERVAL_MS, SessionSettlement } from './session-settlement.js';

const BATCH_SIZE = 200;

/** Collects pending sessions in the background, so outcomes are known (and webhooks fire) without polls. */
@Injectable()
export class SessionCollectorJob {
  private readonly logger = new Logger(SessionCollectorJob.name);
  private running = false;

  constructor(private readonly settlement: SessionSettlement) {}

  @Interval(COLLECT_INTERVAL_MS)
  async collectDueSessions(): Promise<void> {
    // A slow tick must not overlap the next one in the same process.
    if (this.running) return;
    this.running = true;
    try {
      // Batches until nothing is due, so ten thousand pending sessions are all collected every interval.
      const deadline = Date.now() + COLLECT_INTERVAL_MS;
      let claimed: number;
      do {
        claimed = (await this.settlement.collectDue(BATCH_SIZE)).length;
      } while (claimed === BATCH_SIZE && Date.now() < deadline);
    } catch (error) {
      this.logger.error({ err: error }, 'Background collect failed');
    } finally {
      this.running = false;
    }
  }
}
