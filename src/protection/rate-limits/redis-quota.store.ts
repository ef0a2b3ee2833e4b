import type { ProtectionRedis } from '../redis/redis-connection.js';
import { QuotaStore, type KeyLimits, type MonthUsage, type QuotaUsage } from './quota.store.js';
import { startOfNextMonthUtc } from './rate-limit-decision.js';

// Month keys outlive their month by a day, so a replica whose clock lags still finds them.
const MONTH_KEY_GRACE_MS = 86_400_000;

const limitArg = (limit: number | null): string => (limit === null ? '' : String(limit));

export class RedisQuotaStore extends QuotaStore {
  constructor(
    private readonly redis: ProtectionRedis,
    private readonly keyPrefix: string,
  ) {
    super();
  }

  async consume(apiKeyId: string, address: string, now: Date, limits: KeyLimits): Promise<QuotaUsage> {
    const key = (part: string) => `${this.keyPrefix}quota:{${apiKeyId}}:${part}`;
    const month = now.getUTCFullYear() * 100 + now.getUTCMonth() + 1;
    // Relative TTLs: the service clock may differ from Redis's (tests move it), an absolute expiry would not.
    const monthTtlMs = startOfNextMonthUtc(now).getTime() - now.getTime() + MONTH_KEY_GRACE_MS;
    const [accepted, recentCount, minuteFreesAtMs, monthCount, addressCount, addressKnown] = await this.redis.consumeQuota(
      key('minute'),
      key('usage'),
      key('addresses'),
      now.getTime(),
      limitArg(limits.perMinute),
      limitArg(limits.monthly),
      limitArg(limits.addresses),
      address,
      month,
      monthTtlMs,
    );
    return {
      accepted: accepted === 1,
      recentCount,
      minuteFreesAt: new Date(minuteFreesAtMs),
      monthCount,
      addressCount,
      addressKnown: addressKnown === 1,
    };
  }

  async monthUsage(apiKeyIds: string[], now: Date): Promise<Map<string, MonthUsage>> {
    const month = now.getUTCFullYear() * 100 + now.getUTCMonth() + 1;
    const pipeline = this.redis.pipeline();
    for (const id of apiKeyIds) {
      pipeline.hmget(`${this.keyPrefix}quota:{${id}}:usage`, 'month', 'requests');
      pipeline.scard(`${this.keyPrefix}quota:{${id}}:addresses`);
    }
    const replies = (await pipeline.exec()) ?? [];
    const usage = new Map<string, MonthUsage>();
    apiKeyIds.forEach((id, i) => {
      const [stored, requests] = (replies[2 * i]?.[1] as (string | null)[] | undefined) ?? [];
      // Counts of an earlier month are this month's zero (the consume script starts them over on use).
      if (Number(stored ?? 0) >= month) usage.set(id, { requests: Number(requests ?? 0), addresses: Number(replies[2 * i + 1]?.[1] ?? 0) });
    });
    return usage;
  }
}
