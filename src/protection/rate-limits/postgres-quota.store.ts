import { DataSource } from 'typeorm';
import { queryPrepared } from '../../database/prepared-statement.js';
import { QuotaStore, type KeyLimits, type QuotaUsage } from './quota.store.js';

interface UsageRow {
  accepted: boolean;
  recent_count: number;
  minute_frees_at: Date;
  month_count: number;
  address_count: number;
  address_known: boolean;
}

/**
 * One round trip: consume_api_key_quota() locks the key's usage row, decides and records in one statement
 * (migration 1795300615000); sent as a prepared statement, parsed once per connection (docs/performance.md).
 */
export class PostgresQuotaStore extends QuotaStore {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async consume(apiKeyId: string, address: string, now: Date, limits: KeyLimits): Promise<QuotaUsage> {
    const [row] = await queryPrepared<UsageRow>(this.dataSource, 'SELECT * FROM consume_api_key_quota($1, $2, $3, $4, $5, $6)', [
      apiKeyId,
      address,
      now,
      limits.perMinute,
      limits.monthly,
      limits.addresses,
    ]);
    return {
      accepted: row.accepted,
      recentCount: row.recent_count,
      minuteFreesAt: row.minute_frees_at,
      monthCount: row.month_count,
      addressCount: row.address_count,
      addressKnown: row.address_known,
    };
  }
}
