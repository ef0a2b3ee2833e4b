import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { statement } from '../../database/statement.js';
import { LocalAllowances } from './local-allowances.js';
import { QuotaStore, type KeyLimits, type MonthUsage, type QuotaUsage } from './quota.store.js';

// Every limited request that no local allowance admits: prepared.
const consumeQuota = statement<
  [
    apiKeyId: string,
    address: string,
    now: Date,
    perMinute: number | null,
    monthly: number | null,
    addresses: number | null,
    blockWanted: number,
  ],
  {
    accepted: boolean;
    recent_count: number;
    minute_frees_at: Date;
    month_count: number;
    address_count: number;
    address_known: boolean;
    granted: number;
  }
>('SELECT * FROM consume_api_key_quota($1, $2, $3, $4, $5, $6, $7)', { prepare: true });
// A row of an earlier month is this month's zero (consume_api_key_quota starts it over on use).
const monthUsageSql = statement<[apiKeyIds: string[], now: Date], { api_key_id: string; requests: number; addresses: number }>(
  `SELECT api_key_id, month_requests AS requests, cardinality(month_addresses) AS addresses
     FROM api_key_usage WHERE api_key_id = ANY ($1::uuid[]) AND month >= date_trunc('month', $2::timestamptz AT TIME ZONE 'UTC')::date`,
);
const giveBackSql = statement<[apiKeyId: string, monthStart: Date, second: number, count: number]>(
  `UPDATE api_key_usage
      SET month_requests = CASE WHEN month = ($2::timestamptz AT TIME ZONE 'UTC')::date
                                THEN greatest(month_requests - $4, 0) ELSE month_requests END,
          minute_buckets = CASE WHEN minute_second - $3::bigint + 1 BETWEEN 1 AND cardinality(minute_buckets)
                                THEN minute_buckets[1:(minute_second - $3)::integer]
                                     || greatest(minute_buckets[(minute_second - $3 + 1)::integer] - $4::integer, 0)
                                     || minute_buckets[(minute_second - $3 + 2)::integer:61]
                                ELSE minute_buckets END
    WHERE api_key_id = $1`,
  { prepare: true },
);

/**
 * One round trip: consume_api_key_quota() locks the key's usage row, decides and records in one statement
 * (migrations 1795300615000, 1795302315000); sent as a prepared statement, parsed once per connection
 * (docs/performance.md). A key this process sees often and that is far from its limits is admitted
 * from a local allowance the statement reserved (docs/protection.md, "Allowance").
 */
export class PostgresQuotaStore extends QuotaStore implements OnModuleDestroy {
  private readonly logger = new Logger(PostgresQuotaStore.name);
  private readonly allowances: LocalAllowances;

  constructor(
    private readonly dataSource: DataSource,
    maxBlock?: number,
  ) {
    super();
    this.allowances = new LocalAllowances((apiKeyId, unused) => this.giveBack(apiKeyId, unused), maxBlock);
  }

  async consume(apiKeyId: string, address: string, now: Date, limits: KeyLimits): Promise<QuotaUsage> {
    const local = this.allowances.take(apiKeyId, address, now, limits);
    if (local) return local;
    const {
      rows: [{ granted, ...usage }],
    } = await consumeQuota.run(
      this.dataSource,
      apiKeyId,
      address,
      now,
      limits.perMinute,
      limits.monthly,
      limits.addresses,
      this.allowances.blockWanted(apiKeyId),
    );
    this.allowances.record(apiKeyId, address, now, limits, usage, granted);
    return usage;
  }

  async monthUsage(apiKeyIds: string[], now: Date): Promise<Map<string, MonthUsage>> {
    const { rows } = await monthUsageSql.run(this.dataSource, apiKeyIds, now);
    return new Map(rows.map((row) => [row.apiKeyId, { requests: row.requests, addresses: row.addresses }]));
  }

  /** A stopping process gives back what its allowances did not use, before the database closes. */
  async onModuleDestroy(): Promise<void> {
    await this.allowances.closeAll();
  }

  /**
   * Unused admissions leave the month's count (of the block's own month) and the bucket of the second
   * they were counted for, if it still counts: the store then holds exactly what was admitted. The
   * consume statement may have counted the block into a newer second than its own (a lagging clock),
   * never an older one, so taking it from its own second can only leave the count higher, never lower.
   */
  private async giveBack(apiKeyId: string, unused: { monthStart: Date; second: number; count: number }): Promise<void> {
    try {
      await giveBackSql.run(this.dataSource, apiKeyId, unused.monthStart, unused.second, unused.count);
    } catch (error) {
      // The counts then stay higher by these few: conservative, never generous.
      this.logger.error({ err: error }, 'Unused rate-limit allowance not given back');
    }
  }
}
