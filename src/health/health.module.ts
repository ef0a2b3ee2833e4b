import { Module } from '@nestjs/common';
import { EidProvidersModule } from '../eid-providers/eid-providers.module.js';
import { HealthController } from './health.controller.js';

@Module({ imports: [EidProvidersModule], controllers: [HealthController] })
export class HealthModule {}
