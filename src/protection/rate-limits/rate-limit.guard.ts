import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import type { LimitName } from './rate-limit-decision.js';
import { RateLimitsService } from './rate-limits.service.js';

const LIMIT_TEXT: Record<LimitName, string> = {
  per_minute: 'per-minute request limit',
  monthly: 'monthly request limit',
  client_addresses: 'limit of distinct client IP addresses this month',
};

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
    if (!decision.accepted) {
      throw new DomainException(
        'rate_limit_exceeded',
        `The API key's ${LIMIT_TEXT[decision.refusedBy]} is reached; retry after ${decision.retryAfterSeconds} s.`,
        { headers: decision.headers, extensions: { limit: decision.refusedBy } },
      );
    }
    // Successful answers (and errors the handler throws later) carry the headers too.
    context.switchToHttp().getResponse<FastifyReply>().headers(decision.headers);
    return true;
  }
}
