import { Module } from '@nestjs/common';
import { PublicRouteLimitsHooks } from './public-route-limits.hooks.js';

@Module({ providers: [PublicRouteLimitsHooks] })
export class PublicRouteLimitsModule {}
