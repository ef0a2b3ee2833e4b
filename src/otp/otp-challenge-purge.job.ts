import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { OtpService } from './otp.service.js';

@Injectable()
export class OtpChallengePurgeJob {
  private readonly logger = new Logger(OtpChallengePurgeJob.name);

  constructor(private readonly otp: OtpService) {}

  @Interval(60_000)
  async purgeExpiredChallenges(): Promise<void> {
    try {
      await this.otp.purgeExpired();
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'Purging expired OTP challenges failed; retrying next minute');
    }
  }
}
