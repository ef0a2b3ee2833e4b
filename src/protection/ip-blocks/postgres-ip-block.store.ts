import { DataSource } from 'typeorm';
import { clientAddressOf } from '../client-address.js';
import { IpBlockStore, type BlockInForce, type BlockPolicy } from './ip-block.store.js';

export class PostgresIpBlockStore extends IpBlockStore {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async blockedUntil(address: string, now: Date): Promise<Date | null> {
    const rows = await this.dataSource.query<{ blocked_until: Date }[]>(
      'SELECT blocked_until FROM ip_blocks WHERE address = $1 AND blocked_until > $2',
      [address, now],
    );
    return rows[0]?.blocked_until ?? null;
  }

  async blocksInForce(now: Date): Promise<BlockInForce[]> {
    const rows = await this.dataSource.query<{ address: string; blocked_until: Date }[]>(
      'SELECT address::text AS address, blocked_until FROM ip_blocks WHERE blocked_until > $1',
      [now],
    );
    // inet's text form of an IPv6 /64 carries its mask: written again the one way the checks compare.
    return rows.map((row) => ({ address: clientAddressOf(row.address.split('/')[0]), until: row.blocked_until }));
  }

  async recordFailure(address: string, now: Date, policy: BlockPolicy): Promise<Date | null> {
    // record_failed_attempt() keeps the sliding log of failures under the address's row lock (migration 1795300400000).
    const [row] = await this.dataSource.query<{ blocked_until: Date | null }[]>(
      'SELECT record_failed_attempt($1, $2, $3, $4, $5) AS blocked_until',
      [address, now, policy.windowMs, policy.threshold, policy.durationMs],
    );
    return row.blocked_until;
  }

  async purgeExpired(now: Date): Promise<number> {
    const [, deleted] = await this.dataSource.query<[unknown, number]>('DELETE FROM ip_blocks WHERE expires_at <= $1', [now]);
    return deleted;
  }
}
