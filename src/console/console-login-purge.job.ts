import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { ConsoleLoginLimit } from './console-login-limit.service.js';

/** Keeps the per-address login windows to the addresses of the last minute. */
@Injectable()
export class ConsoleLoginPurgeJob {
  private readonly logger = new Logger(ConsoleLoginPurgeJob.name);

  constructor(private readonly limit: ConsoleLoginLimit) {}

  @Interval(5 * 60_000)
  async purgeEndedWindows(): Promise<void> {
    try {
      await this.limit.purgeEnded();
    } catch (error) {
      this.logger.error({ err: error }, 'Purging console login windows failed');
    }
  }
}
