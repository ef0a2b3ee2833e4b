import { ConsoleLoginAudit } from '../audit/console-login-audit.js';
import { UsersModule } from '../users/users.module.js';
import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { OtpModule } from '../otp/otp.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { ConsoleLoginDelays } from './console-login-delays.service.js';
import { ConsoleLoginFailureStore } from './console-login-failure.store.js';
import { ConsoleLoginLimit } from './console-login-limit.service.js';
import { ConsoleLoginWindowStore } from './console-login-window.store.js';
import { ConsoleLoginPurgeJob } from './console-login-purge.job.js';
import { ConsoleLoginController } from './console-login.controller.js';
import { ConsoleLoginGuard } from './console-login.guard.js';
import { ConsolePageController } from './console-page.controller.js';

/** The team console at /console (docs/console.md): its page, its files and its own login. */
@Module({
  imports: [OtpModule, TokensModule, UsersModule],
  controllers: [ConsolePageController, ConsoleLoginController],
  providers: [
    ConsoleLoginAudit,
    ConsoleLoginWindowStore,
    ConsoleLoginLimit,
    ConsoleLoginGuard,
    ConsoleLoginPurgeJob,
    ConsoleLoginFailureStore,
    ConsoleLoginDelays,
  ],
})
export class ConsoleModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /** `/console/` (as people type it) leads to the page; Nest's router knows only `/console`. */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.get('/console/', (_request, reply) => reply.redirect('/console', 301));
  }
}
