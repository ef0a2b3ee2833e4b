import { Injectable, Logger } from '@nestjs/common';
import type { ApiKey } from '../../api-keys/api-key.entity.js';
import { Clock } from '../../common/clock/clock.js';
import { isDatabaseUnavailable } from '../../database/database-unavailable.js';
import { clientAddressOf } from '../client-address.js';
import { QuotaStore, type KeyLimits } from './quota.store.js';
import { decideRateLimit, type RateLimitDecision } from './rate-limit-decision.js';

/** Per-key limits (docs/protection.md): per minute over a sliding 60 s window, per calendar month, distinct client IPs per month. */
@Injectable()
export class RateLimitsService {
  private readonly logger = new Logger(RateLimitsService.name);

  constructor(
    private readonly store: QuotaStore,
    private readonly clock: Clock,
  ) {}

  /** Decides and records one request of `apiKey` from `ip`; null when the key has no limits. */
  async consume(apiKey: ApiKey, ip: string): Promise<RateLimitDecision | null> {
    const limits: KeyLimits = { perMinute: apiKey.perMinuteLimit, monthly: apiKey.monthlyLimit, addresses: apiKey.ipLimit };
    // An unlimited key costs no round trip.
    if (limits.perMinute === null && limits.monthly === null && limits.addresses === null) return null;
    const now = this.clock.now();
    try {
      const usage = await this.store.consume(apiKey.id, clientAddressOf(ip), now, limits);
      return decideRateLimit(limits, usage, now);
    } catch (error) {
      // Our own database away or hung (the PostgreSQL store): the request's own work needs it too, so it
      // answers 503 now, not after one more statement's deadline (docs/reliability.md). Forward
      // authentication, whose upstreams do not need our database, admits instead.
      if (isDatabaseUnavailable(error)) throw error;
      // Fail open, as Kong and Envoy do by default: a store outage must not refuse every paying client.
      this.logger.error({ err: error }, 'Rate limit check failed; request let through');
      return null;
    }
  }
}
