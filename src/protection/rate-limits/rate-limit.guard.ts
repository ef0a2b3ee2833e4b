import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { applyKeyLimits } from './key-limits.js';
import { RateLimitsService } from './rate-limits.service.js';

/**
 * Applies the key's limits to API-key requests, where docs/protection.md puts them: after authentication and
 * the key's scope, feature and endpoint checks (AuthGuard, the global guard registered before this
 * one), before body validation (pipes run after every guard). A guard rather than an interceptor:
 * Nest's interceptor chain (rxjs) cost 60 µs of CPU per request (docs/benchmarks.md).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly rateLimits: RateLimitsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    await applyKeyLimits(this.rateLimits, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
    return true;
  }
}
