import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { HttpMetrics } from '../../metrics/http-metrics.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { PinoNestLogger } from './pino-nest-logger.js';
import { logRequests } from './request-log.js';
import { createRootLogger } from './root-logger.js';

/** JSON logs through one pino logger: Nest's Logger calls, and a line per request with its id. */
@Module({
  providers: [
    {
      provide: PinoNestLogger,
      inject: [serverConfig.KEY],
      useFactory: (config: ServerConfig) => new PinoNestLogger(createRootLogger(config.logLevel)),
    },
  ],
  exports: [PinoNestLogger],
})
export class LoggingModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly logger: PinoNestLogger,
    private readonly httpMetrics: HttpMetrics,
  ) {}

  onModuleInit(): void {
    // The command line builds an application context without HTTP.
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (fastify) logRequests(fastify, this.logger.pino, this.httpMetrics);
  }
}
