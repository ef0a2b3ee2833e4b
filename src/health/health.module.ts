import { Module } from '@nestjs/common';
import { EidProvidersModule } from '../eid-providers/eid-providers.module.js';
import { HealthController } from './health.controller.js';
import { MetricsController } from './metrics.controller.js';

/** The operator's probes and the Prometheus scrape (docs/operations.md); the registry is MetricsModule's. */
@Module({ imports: [EidProvidersModule], controllers: [HealthController, MetricsController] })
export class HealthModule {}
