import { Global, Module } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { HttpMetrics } from './http-metrics.js';

/**
 * One Prometheus registry per application (not prom-client's global one), so that several apps in
 * one process, as in the tests, each count their own.
 */
@Global()
@Module({
  providers: [
    {
      provide: Registry,
      useFactory: () => {
        const registry = new Registry();
        collectDefaultMetrics({ register: registry });
        return registry;
      },
    },
    HttpMetrics,
  ],
  exports: [Registry, HttpMetrics],
})
export class MetricsModule {}
