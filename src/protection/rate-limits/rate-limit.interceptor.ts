import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import type { LimitName } from './rate-limit-decision.js';
import { RateLimitsService } from './rate-limits.service.js';

const LIMIT_TEXT: Record<LimitName, string> = {
  per_minute: 'per-minute request limit',
  monthly: 'monthly request limit',
  client_addresses: 'limit of distinct client IP addresses this month',
};

/**
 * Applies the key's limits to API-key requests. An interceptor, not a guard: Nest runs every guard
 * (authentication, key state, scope, feature, endpoint kind) before any interceptor and every pipe
 * (body validation) after, which is exactly where SPEC 8a puts the limits.
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  constructor(private readonly rateLimits: RateLimitsService) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const principal = request.principal;
    if (principal?.kind !== 'apiKey') return next.handle();

    const decision = await this.rateLimits.consume(principal.apiKey, request.ip);
    if (!decision) return next.handle();
    if (!decision.accepted) {
      throw new DomainException(
        'rate_limit_exceeded',
        `The API key's ${LIMIT_TEXT[decision.refusedBy]} is reached; retry after ${decision.retryAfterSeconds} s.`,
        { headers: decision.headers, extensions: { limit: decision.refusedBy } },
      );
    }
    // Successful answers (and errors the handler throws later) carry the headers too.
    context.switchToHttp().getResponse<FastifyReply>().headers(decision.headers);
    return next.handle();
  }
}
