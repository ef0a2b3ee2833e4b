import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { statement } from '../database/statement.js';

const recordSql = statement<[ids: string[], at: string[]]>(
  `WITH due AS MATERIALIZED (
     SELECT k.id, u.at FROM api_keys k JOIN unnest($1::uuid[], $2::timestamptz[]) AS u(id, at) ON u.id = k.id
      WHERE k.last_used_at IS NULL OR k.last_used_at < u.at
      ORDER BY k.id
        FOR UPDATE OF k
   )
   UPDATE api_keys AS k SET last_used_at = greatest(k.last_used_at, due.at) FROM due WHERE k.id = due.id`,
);

@Injectable()
export class ApiKeyLastUseStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Writes a batch of last uses in one statement. Rows are locked in id order, so two processes
   * writing overlapping batches at once cannot deadlock; a time never moves back (another process
   * may have written a later one).
   */
  async record(uses: Map<string, Date>): Promise<void> {
    await recordSql.run(
      this.dataSource,
      [...uses.keys()],
      [...uses.values()].map((at) => at.toISOString()),
    );
  }
}
