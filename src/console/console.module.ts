import { Module } from '@nestjs/common';
import { OtpModule } from '../otp/otp.module.js';
import { ConsoleLoginLimit } from './console-login-limit.service.js';
import { ConsoleLoginPurgeJob } from './console-login-purge.job.js';
import { ConsoleLoginController } from './console-login.controller.js';
import { ConsoleLoginGuard } from './console-login.guard.js';
import { ConsolePageController } from './console-page.controller.js';

/** The team console at /console (docs/console.md): its page, its files and its own login. */
@Module({
  imports: [OtpModule],
  controllers: [ConsolePageController, ConsoleLoginController],
  providers: [ConsoleLoginLimit, ConsoleLoginGuard, ConsoleLoginPurgeJob],
})
export class ConsoleModule {}
