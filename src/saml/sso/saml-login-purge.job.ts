import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../../common/clock/clock.js';
import { SamlLoginStore } from './saml-login.store.js';

/** Expired SAML logins leave the table; their request IDs are past the 5-minute IssueInstant window by then. */
@Injectable()
export class SamlLoginPurgeJob {
  private readonly logger = new Logger(SamlLoginPurgeJob.name);

  constructor(
    private readonly logins: SamlLoginStore,
    private readonly clock: Clock,
  ) {}

  @Interval(60_000)
  async purgeExpiredLogins(): Promise<void> {
    try {
      await this.logins.purgeExpired(this.clock.now());
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'Purging expired SAML logins failed; retrying next minute');
    }
  }
}
