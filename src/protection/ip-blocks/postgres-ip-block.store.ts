import { DataSource } from 'typeorm';
import { statement } from '../../database/statement.js';
import { clientAddressOf } from '../client-address.js';
import { IpBlockStore, type BlockInForce, type BlockPolicy } from './ip-block.store.js';

const blockedUntilSql = statement<[address: string, now: Date], { blocked_until: Date }>(
  'SELECT blocked_until FROM ip_blocks WHERE address = $1 AND blocked_until > $2',
);
const inForceSql = statement<[now: Date], { address: string; blocked_until: Date }>(
  'SELECT address::text AS address, blocked_until FROM ip_blocks WHERE blocked_until > $1',
);
// record_failed_attempt() keeps the sliding log of failures under the address's row lock (migration 1795300400000).
const recordFailureSql = statement<
  [address: string, now: Date, windowMs: number, threshold: number, durationMs: number],
  { blocked_until: Date | null }
>('SELECT record_failed_attempt($1, $2, $3, $4, $5) AS blocked_until');
const purgeSql = statement<[now: Date]>('DELETE FROM ip_blocks WHERE expires_at <= $1');

export class PostgresIpBlockStore extends IpBlockStore {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async blockedUntil(address: string, now: Date): Promise<Date | null> {
    return (await blockedUntilSql.run(this.dataSource, address, now)).rows[0]?.blockedUntil ?? null;
  }

  async blocksInForce(now: Date): Promise<BlockInForce[]> {
    const { rows } = await inForceSql.run(this.dataSource, now);
    // inet's text form of an IPv6 /64 carries its mask: written again the one way the checks compare.
    return rows.map((row) => ({ address: clientAddressOf(row.address.split('/')[0]), until: row.blockedUntil }));
  }

  async recordFailure(address: string, now: Date, policy: BlockPolicy): Promise<Date | null> {
    const { rows } = await recordFailureSql.run(this.dataSource, address, now, policy.windowMs, policy.threshold, policy.durationMs);
    return rows[0].blockedUntil;
  }

  async purgeExpired(now: Date): Promise<number> {
    return (await purgeSql.run(this.dataSource, now)).rowCount;
  }
}
