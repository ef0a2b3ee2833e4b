import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TokensModule } from '../tokens/tokens.module.js';
import { UsersModule } from '../users/users.module.js';
import { otpDeliveryProvider } from './delivery/otp-delivery.provider.js';
import { OtpChallenge } from './otp-challenge.entity.js';
import { OtpChallengePurgeJob } from './otp-challenge-purge.job.js';
import { OtpChallengeStore } from './otp-challenge.store.js';
import { OtpController } from './otp.controller.js';
import { otpSecretProvider } from './otp-secret.js';
import { OtpService } from './otp.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([OtpChallenge]), UsersModule, TokensModule],
  controllers: [OtpController],
  providers: [OtpChallengeStore, OtpService, otpDeliveryProvider, otpSecretProvider, OtpChallengePurgeJob],
  // The console's own login uses the same service (docs/console.md).
  exports: [OtpService],
})
export class OtpModule {}
