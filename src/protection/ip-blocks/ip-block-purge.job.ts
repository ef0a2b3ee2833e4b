import { Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../../common/clock/clock.js';
import { PurgeJob } from '../../common/jobs/purge-job.js';
import { IpBlockStore } from './ip-block.store.js';

/** Deletes failure logs and blocks that have ended (PostgreSQL; Redis expires its keys itself). */
@Injectable()
export class IpBlockPurgeJob extends PurgeJob {
  protected readonly subject = 'ended IP blocks';

  constructor(
    private readonly store: IpBlockStore,
    private readonly clock: Clock,
  ) {
    super();
  }

  @Interval(5 * 60_000)
  purgeExpiredBlocks(): Promise<number> {
    return this.purge();
  }

  protected purgeDue(): Promise<number> {
    return this.store.purgeExpired(this.clock.now());
  }
}
