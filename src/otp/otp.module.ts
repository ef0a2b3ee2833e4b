import { Module } from '@nestjs/common';
import { TokensModule } from '../tokens/tokens.module.js';
import { UsersModule } from '../users/users.module.js';
import { otpDeliveryProvider } from './delivery/otp-delivery.provider.js';
import { OtpChallengePurgeJob } from './otp-challenge-purge.job.js';
import { OtpController } from './otp.controller.js';
import { otpSecretProvider } from './otp-secret.js';
import { OtpService } from './otp.service.js';

@Module({
  imports: [UsersModule, TokensModule],
  controllers: [OtpController],
  providers: [OtpService, otpDeliveryProvider, otpSecretProvider, OtpChallengePurgeJob],
  // The console's own login uses the same service (docs/console.md).
  exports: [OtpService],
})
export class OtpModule {}
