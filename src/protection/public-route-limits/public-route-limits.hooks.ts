import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Clock } from '../../common/clock/clock.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { clientAddressOf } from '../client-address.js';
import { PerIpWindow } from './per-ip-window.js';

// The anonymous routes anyone may call in a loop: the simulator's scan, phone answers and app page, the kiosk,
// the transparency log's proofs.
const LIMITED = /^\/(?:api\/v1\/simulator\/(?:scan|phone)|simulator\/app|kiosk\/|transparency\/)/;

/** Per-client-address limits on the anonymous simulator and kiosk routes (docs/protection.md). */
@Injectable()
export class PublicRouteLimitsHooks implements OnModuleInit {
  private readonly window: PerIpWindow;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly clock: Clock,
    @Inject(serverConfig.KEY) server: ServerConfig,
  ) {
    this.window = new PerIpWindow(server.publicRouteLimitPerMinute);
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    fastify.addHook('onRequest', async (request: FastifyRequest) => {
      if (!LIMITED.test(request.url)) return;
      const retryAfter = this.window.take(clientAddressOf(request.ip), this.clock.nowMs());
      if (retryAfter !== null) {
        throw new DomainException('rate_limit_exceeded', 'Too many requests from this address to this route.', {
          headers: { 'retry-after': String(retryAfter) },
        });
      }
    });
  }
}
