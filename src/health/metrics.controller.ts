import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Registry } from 'prom-client';
import { Public } from '../auth/access.decorators.js';
import { RecentValue } from '../common/cache/recent-value.js';
import { serverConfig, type ServerConfig } from '../config/server.config.js';

/** Prometheus scrape endpoint (docs/operations.md); no credential, like the health probes. */
@ApiExcludeController()
@Public()
@Controller('metrics')
export class MetricsController {
  // Some gauges query the database; a scrape may be ANONYMOUS_CACHE_TTL old (docs/operations.md).
  private readonly text: RecentValue<string>;

  constructor(
    private readonly registry: Registry,
    @Inject(serverConfig.KEY) server: ServerConfig,
  ) {
    this.text = new RecentValue(server.anonymousCacheTtlMs, () => this.registry.metrics());
  }

  @Get()
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    void reply
      .header('content-type', this.registry.contentType)
      .header('cache-control', 'no-store')
      .send(await this.text.get());
  }
}
