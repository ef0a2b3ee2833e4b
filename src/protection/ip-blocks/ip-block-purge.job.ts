import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../../common/clock/clock.js';
import { IpBlockStore } from './ip-block.store.js';

/** Deletes failure logs and blocks that have ended (PostgreSQL; Redis expires its keys itself). */
@Injectable()
export class IpBlockPurgeJob {
  private readonly logger = new Logger(IpBlockPurgeJob.name);

  constructor(
    private readonly store: IpBlockStore,
    private readonly clock: Clock,
  ) {}

  @Interval(5 * 60_000)
  async purgeExpiredBlocks(): Promise<void> {
    try {
      await this.store.purgeExpired(this.clock.now());
    } catch (error) {
      this.logger.error({ err: error }, 'Purging expired IP blocks failed');
    }
  }
}
