import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { ConsoleLoginDelays } from './console-login-delays.service.js';
import { ConsoleLoginLimit } from './console-login-limit.service.js';

/** Keeps the per-address login windows to the last minute, and wrong console codes to the last day. */
@Injectable()
export class ConsoleLoginPurgeJob {
  private readonly logger = new Logger(ConsoleLoginPurgeJob.name);

  constructor(
    private readonly limit: ConsoleLoginLimit,
    private readonly delays: ConsoleLoginDelays,
  ) {}

  @Interval(5 * 60_000)
  async purgeEndedWindows(): Promise<void> {
    try {
      await this.limit.purgeEnded();
    } catch (error) {
      this.logger.error({ err: error }, 'Purging console login windows failed');
    }
    try {
      await this.delays.purgeForgotten();
    } catch (error) {
      this.logger.error({ err: error }, 'Purging console login failures failed');
    }
  }
}
