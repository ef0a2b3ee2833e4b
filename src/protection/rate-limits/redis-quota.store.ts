import { Logger, type OnModuleDestroy } from '@nestjs/common';
import type { ProtectionRedis } from '../redis/redis-connection.js';
import { LocalAllowances } from './local-allowances.js';
import { QuotaStore, type KeyLimits, type MonthUsage, type QuotaUsage } from './quota.store.js';
import { startOfNextMonthUtc } from './rate-limit-decision.js';

// Month keys outlive their month by a day, so a replica whose clock lags still finds them.
const MONTH_KEY_GRACE_MS = 86_400_000;

const limitArg = (limit: number | null): string => (limit === null ? '' : String(limit));
const monthOf = (date: Date): number => date.getUTCFullYear() * 100 + date.getUTCMonth() + 1;

/**
 * One round trip: the consume script decides and records in Redis, which runs scripts one at a time.
 * A key this process sees often and that is far from its limits is admitted from a local allowance
 * the script reserved (docs/protection.md, "Allowance"), as on the PostgreSQL store.
 */
export class RedisQuotaStore extends QuotaStore implements OnModuleDestroy {
  private readonly logger = new Logger(RedisQuotaStore.name);
  private readonly allowances: LocalAllowances;

  constructor(
    private readonly redis: ProtectionRedis,
    private readonly keyPrefix: string,
    maxBlock?: number,
  ) {
    super();
    this.allowances = new LocalAllowances((apiKeyId, unused) => this.giveBack(apiKeyId, unused), maxBlock);
  }

  async consume(apiKeyId: string, address: string, now: Date, limits: KeyLimits): Promise<QuotaUsage> {
    const local = this.allowances.take(apiKeyId, address, now, limits);
    if (local) return local;
    // Relative TTLs: the service clock may differ from Redis's (tests move it), an absolute expiry would not.
    const monthTtlMs = startOfNextMonthUtc(now).getTime() - now.getTime() + MONTH_KEY_GRACE_MS;
    const [accepted, recentCount, minuteFreesAtMs, monthCount, addressCount, addressKnown, granted] = await this.redis.consumeQuota(
      this.key(apiKeyId, 'minute'),
      this.key(apiKeyId, 'usage'),
      this.key(apiKeyId, 'addresses'),
      now.getTime(),
      limitArg(limits.perMinute),
      limitArg(limits.monthly),
      limitArg(limits.addresses),
      address,
      monthOf(now),
      monthTtlMs,
      this.allowances.blockWanted(apiKeyId),
    );
    const usage: QuotaUsage = {
      accepted: accepted === 1,
      recentCount,
      minuteFreesAt: new Date(minuteFreesAtMs),
      monthCount,
      addressCount,
      addressKnown: addressKnown === 1,
    };
    this.allowances.record(apiKeyId, address, now, limits, usage, granted);
    return usage;
  }

  async monthUsage(apiKeyIds: string[], now: Date): Promise<Map<string, MonthUsage>> {
    const month = monthOf(now);
    const pipeline = this.redis.pipeline();
    for (const id of apiKeyIds) {
      pipeline.hmget(this.key(id, 'usage'), 'month', 'requests');
      pipeline.scard(this.key(id, 'addresses'));
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

  /** A stopping process gives back what its allowances did not use, before the Redis connection closes. */
  async onModuleDestroy(): Promise<void> {
    await this.allowances.closeAll();
  }

  private key(apiKeyId: string, part: string): string {
    return `${this.keyPrefix}quota:{${apiKeyId}}:${part}`;
  }

  /** Unused admissions leave the month's count and their own second's bucket (as on PostgreSQL: conservative). */
  private async giveBack(apiKeyId: string, unused: { monthStart: Date; second: number; count: number }): Promise<void> {
    try {
      await this.redis.giveBackQuota(this.key(apiKeyId, 'usage'), this.key(apiKeyId, 'minute'), monthOf(unused.monthStart), unused.second, unused.count);
    } catch (error) {
      // The counts then stay higher by these few: conservative, never generous.
      this.logger.error({ err: error }, 'Unused rate-limit allowance not given back');
    }
  }
}
