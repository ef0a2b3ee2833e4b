import { Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { PurgeJob } from '../common/jobs/purge-job.js';
import { ConsoleLoginDelays } from './console-login-delays.service.js';
import { ConsoleLoginLimit } from './console-login-limit.service.js';

/** Keeps the per-address login windows to the last minute, and wrong console codes to the last day. */
@Injectable()
export class ConsoleLoginPurgeJob extends PurgeJob {
  protected readonly subject = 'ended console login windows and forgotten wrong codes';

  constructor(
    private readonly limit: ConsoleLoginLimit,
    private readonly delays: ConsoleLoginDelays,
  ) {
    super();
  }

  @Interval(5 * 60_000)
  purgeEndedWindows(): Promise<number> {
    return this.purge();
  }

  // Both run even when one fails.
  protected async purgeDue(): Promise<number> {
    const [windows, failures] = await Promise.all([this.limit.purgeEnded(), this.delays.purgeForgotten()]);
    return windows + failures;
  }
}
