import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitRefusal } from './rate-limit-refusal.js';
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
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const principal = request.principal;
    if (principal?.kind !== 'apiKey') return true;

    const decision = await this.rateLimits.consume(principal.apiKey, request.ip);
    if (!decision) return true;
    if (!decision.accepted) throw rateLimitRefusal(decision);
    // Successful answers (and errors the handler throws later) carry the headers too.
    context.switchToHttp().getResponse<FastifyReply>().headers(decision.headers);
    return true;
  }
}
