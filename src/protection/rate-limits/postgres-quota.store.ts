import { DataSource } from 'typeorm';
import { queryPrepared } from '../../database/prepared-statement.js';
import { QuotaStore, type KeyLimits, type MonthUsage, type QuotaUsage } from './quota.store.js';

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

  async monthUsage(apiKeyIds: string[], now: Date): Promise<Map<string, MonthUsage>> {
    // A row of an earlier month is this month's zero (consume_api_key_quota starts it over on use).
    const rows: { api_key_id: string; requests: number; addresses: number }[] = await this.dataSource.query(
      `SELECT api_key_id, month_requests AS requests, cardinality(month_addresses) AS addresses
         FROM api_key_usage WHERE api_key_id = ANY ($1::uuid[]) AND month >= date_trunc('month', $2::timestamptz AT TIME ZONE 'UTC')::date`,
      [apiKeyIds, now],
    );
    return new Map(rows.map((row) => [row.api_key_id, { requests: row.requests, addresses: row.addresses }]));
  }
}
