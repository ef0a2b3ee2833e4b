import { Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../common/clock/clock.js';
import { PurgeJob } from '../common/jobs/purge-job.js';
import { TokenRevocations } from './token-revocations.js';

/** A revocation lives only until its token would have expired anyway (docs/otp-and-tokens.md, "Revocation"). */
@Injectable()
export class TokenRevocationPurgeJob extends PurgeJob {
  protected readonly subject = 'revocations of expired member tokens';

  constructor(
    private readonly revocations: TokenRevocations,
    private readonly clock: Clock,
  ) {
    super();
  }

  @Interval(15 * 60_000)
  purgeExpiredRevocations(): Promise<number> {
    return this.purge();
  }

  protected purgeDue(): Promise<number> {
    return this.revocations.purgeExpired(this.clock.now());
  }
}
