import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { AuthModule } from '../auth/auth.module.js';
import { forwardAuthConfig } from './forward-auth.config.js';
import { ForwardAuthController } from './forward-auth.controller.js';
import { ForwardAuthHooks } from './forward-auth.hooks.js';
import { ForwardAuthMetrics } from './forward-auth.metrics.js';
import { ForwardAuthService } from './forward-auth.service.js';

/**
 * Forward authentication (docs/forward-auth.md): gateways in front of other APIs ask this service for
 * each request's decision, so keys, plans, limits, IP blocks and the input guard hold there too.
 * Its configuration namespace is its own (FORWARD_AUTH_POLICY), loaded here.
 */
@Module({
  imports: [ConfigModule.forFeature(forwardAuthConfig), AuthModule],
  controllers: [ForwardAuthController],
  providers: [ForwardAuthService, ForwardAuthMetrics, ForwardAuthHooks],
})
export class ForwardAuthModule {}
