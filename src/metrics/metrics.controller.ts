import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Registry } from 'prom-client';
import { Public } from '../common/access/access.decorators.js';

/** Prometheus scrape endpoint (docs/operations.md); no credential, like the health probes. */
@ApiExcludeController()
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly registry: Registry) {}

  @Get()
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    void reply.header('content-type', this.registry.contentType).header('cache-control', 'no-store').send(await this.registry.metrics());
  }
}
