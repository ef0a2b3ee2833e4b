import { DomainException } from '../../common/problem-details/domain.exception.js';
import type { LimitName, RateLimitDecision } from './rate-limit-decision.js';

const LIMIT_TEXT: Record<LimitName, string> = {
  per_minute: 'per-minute request limit',
  monthly: 'monthly request limit',
  client_addresses: 'limit of distinct client IP addresses this month',
};

/** The 429 of a refused decision (docs/protection.md, "Headers"): Retry-After, RateLimit-* and the `limit` member. */
export function rateLimitRefusal(decision: Extract<RateLimitDecision, { accepted: false }>): DomainException {
  return new DomainException(
    'rate_limit_exceeded',
    `The API key's ${LIMIT_TEXT[decision.refusedBy]} is reached; retry after ${decision.retryAfterSeconds} s.`,
    { headers: decision.headers, extensions: { limit: decision.refusedBy } },
  );
}
