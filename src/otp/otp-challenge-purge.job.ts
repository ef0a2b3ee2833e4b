import { Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { PurgeJob } from '../common/jobs/purge-job.js';
import { OtpService } from './otp.service.js';

@Injectable()
export class OtpChallengePurgeJob extends PurgeJob {
  protected readonly subject = 'expired OTP challenges';

  constructor(private readonly otp: OtpService) {
    super();
  }

  @Interval(60_000)
  purgeExpiredChallenges(): Promise<number> {
    return this.purge();
  }

  protected purgeDue(): Promise<number> {
    return this.otp.purgeExpired();
  }
}
