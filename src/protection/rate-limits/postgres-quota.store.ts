import { DataSource } from 'typeorm';
import { QuotaStore, type KeyLimits, type QuotaUsage } from './quota.store.js';

interface UsageRow {
  accepted: boolean;
  recent_count: number;
  oldest_recent: Date | null;
  month_count: number;
  address_count: number;
  address_known: boolean;
}

/** One round trip: consume_api_key_quota() locks the key's usage row, decides, and records (migration 1795300400000). */
export class PostgresQuotaStore extends QuotaStore {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async consume(apiKeyId: string, address: string, now: Date, limits: KeyLimits): Promise<QuotaUsage> {
    const [row] = await this.dataSource.query<UsageRow[]>('SELECT * FROM consume_api_key_quota($1, $2, $3, $4, $5, $6)', [
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
      oldestRecent: row.oldest_recent,
      monthCount: row.month_count,
      addressCount: row.address_count,
      addressKnown: row.address_known,
    };
  }
}
