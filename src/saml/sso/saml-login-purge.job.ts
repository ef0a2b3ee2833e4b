import { Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../../common/clock/clock.js';
import { PurgeJob } from '../../common/jobs/purge-job.js';
import { SamlLoginStore } from './saml-login.store.js';

/** Expired SAML logins leave the table; their request IDs are past the 5-minute IssueInstant window by then. */
@Injectable()
export class SamlLoginPurgeJob extends PurgeJob {
  protected readonly subject = 'expired SAML logins';

  constructor(
    private readonly logins: SamlLoginStore,
    private readonly clock: Clock,
  ) {
    super();
  }

  @Interval(60_000)
  purgeExpiredLogins(): Promise<number> {
    return this.purge();
  }

  protected purgeDue(): Promise<number> {
    return this.logins.purgeExpired(this.clock.now());
  }
}
