import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { errorForLog } from '../../common/logging/error-for-log.js';
import type { ProtectionRedis, RedisConnection } from '../redis/redis-connection.js';
import { DegradedQuota } from './degraded-quota.js';
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
 * the script reserved (docs/protection.md, "Allowance"), as on the PostgreSQL store. While Redis does
 * not answer, this process counts alone (DegradedQuota), and hands its counts over when Redis is back.
 */
export class RedisQuotaStore extends QuotaStore implements OnModuleDestroy {
  private readonly logger = new Logger(RedisQuotaStore.name);
  private readonly allowances: LocalAllowances;
  private readonly alone = new DegradedQuota();
  private readonly redis: ProtectionRedis;
  private readonly keyPrefix: string;
  /** Whether this process has counted alone since Redis last answered. */
  private countedAlone = false;

  constructor(
    private readonly connection: RedisConnection,
    maxBlock?: number,
  ) {
    super();
    this.redis = connection.client!;
    this.keyPrefix = connection.keyPrefix;
    this.allowances = new LocalAllowances((apiKeyId, unused) => this.giveBack(apiKeyId, unused), maxBlock);
  }

  /** True while Redis does not answer and this process counts alone (readiness reports it). */
  override get degraded(): boolean {
    return !this.connection.answering;
  }

  async consume(apiKeyId: string, address: string, now: Date, limits: KeyLimits): Promise<QuotaUsage> {
    if (this.degraded) return this.consumeAlone(apiKeyId, address, now, limits);
    const local = this.allowances.take(apiKeyId, address, now, limits);
    if (local) return local;
    let usage: QuotaUsage;
    try {
      usage = await this.consumeShared(apiKeyId, address, now, limits);
    } catch (error) {
      this.connection.unanswered(error);
      if (!this.countedAlone) this.logger.warn({ err: errorForLog(error) }, 'Redis does not answer: rate limits counted per process');
      return this.consumeAlone(apiKeyId, address, now, limits);
    }
    this.alone.remember(apiKeyId, address, now, usage);
    if (this.countedAlone) this.handOver(now);
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

  private consumeAlone(apiKeyId: string, address: string, now: Date, limits: KeyLimits): QuotaUsage {
    this.countedAlone = true;
    return this.alone.consume(apiKeyId, address, now, limits);
  }

  private async consumeShared(apiKeyId: string, address: string, now: Date, limits: KeyLimits): Promise<QuotaUsage> {
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

  /** Redis is back: what this process admitted alone joins the shared counts, which decide again. */
  private handOver(now: Date): void {
    this.countedAlone = false;
    const monthTtlMs = startOfNextMonthUtc(now).getTime() - now.getTime() + MONTH_KEY_GRACE_MS;
    const second = Math.floor(now.getTime() / 1000);
    const admissions = this.alone.takeAdmissions(now);
    for (const { apiKeyId, minute, month, monthCount, addresses } of admissions) {
      this.redis
        .recordDegraded(
          this.key(apiKeyId, 'minute'),
          this.key(apiKeyId, 'usage'),
          this.key(apiKeyId, 'addresses'),
          second,
          minute,
          month,
          monthCount,
          monthTtlMs,
          ...addresses,
        )
        // Lost, the month under-counts by these few: logged, as a failed give-back is.
        .catch((error: unknown) => this.logger.error({ err: error }, 'Per-process rate-limit counts not handed to Redis'));
    }
    if (admissions.length > 0) this.logger.log({ keys: admissions.length }, 'Redis answers again: shared rate-limit counts resumed');
  }

  /** Unused admissions leave the month's count and their own second's bucket (as on PostgreSQL: conservative). */
  private async giveBack(apiKeyId: string, unused: { monthStart: Date; second: number; count: number }): Promise<void> {
    // Redis away: the admissions stay counted, conservative, as after a failed give-back.
    if (this.degraded) return;
    try {
      await this.redis.giveBackQuota(
        this.key(apiKeyId, 'usage'),
        this.key(apiKeyId, 'minute'),
        monthOf(unused.monthStart),
        unused.second,
        unused.count,
      );
    } catch (error) {
      // The counts then stay higher by these few: conservative, never generous.
      this.logger.error({ err: error }, 'Unused rate-limit allowance not given back');
    }
  }
}
