import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { statement } from '../database/statement.js';

/** The row that counts a user's wrong codes from every address together (docs/console.md, "Wrong codes"). */
export const EVERY_ADDRESS = '0.0.0.0/0';

const retryAtSql = statement<[userGuid: string, address: string, now: Date], { retry_at: Date; every_address: boolean }>(
  `SELECT retry_at, address = '${EVERY_ADDRESS}'::inet AS every_address FROM console_login_failures
   WHERE user_guid = $1 AND address IN ($2::inet, '${EVERY_ADDRESS}'::inet) AND retry_at > $3
   ORDER BY retry_at DESC LIMIT 1`,
);
// A first failure never waits: freeFailures is at least 1.
const recordFailureSql = statement<
  [userGuid: string, address: string, now: Date, forgottenBefore: Date, freeFailures: number, baseMs: number, maxMs: number],
  { failures: number; retry_at: Date }
>(
  `INSERT INTO console_login_failures AS f (user_guid, address, failures, last_failed_at, retry_at) VALUES ($1, $2, 1, $3, $3)
   ON CONFLICT (user_guid, address) DO UPDATE
     SET failures = CASE WHEN f.last_failed_at <= $4 THEN 1 ELSE f.failures + 1 END,
         last_failed_at = EXCLUDED.last_failed_at,
         retry_at = $3::timestamptz + (CASE WHEN (CASE WHEN f.last_failed_at <= $4 THEN 1 ELSE f.failures + 1 END) <= $5 THEN 0
           ELSE LEAST($7::float8, $6::float8 * power(2, LEAST((CASE WHEN f.last_failed_at <= $4 THEN 1 ELSE f.failures + 1 END) - $5 - 1, 30))) END)
           * interval '1 millisecond'
   RETURNING failures, retry_at`,
);
const clearSql = statement<[userGuid: string, address: string]>(`DELETE FROM console_login_failures WHERE user_guid = $1 AND address = $2`);
const clearUserSql = statement<[userGuid: string]>(`DELETE FROM console_login_failures WHERE user_guid = $1`);
const deleteForgottenSql = statement<[forgottenBefore: Date, now: Date]>(
  `DELETE FROM console_login_failures WHERE last_failed_at <= $1 AND retry_at <= $2`,
);

/** Every statement on console_login_failures: wrong console codes per user and client address, and per user from every address. */
@Injectable()
export class ConsoleLoginFailureStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Until when this user may not try a code from this address, and whether the wait is the account's
   * (every address's) rather than this address's; null when it may try now.
   */
  async retryAt(userGuid: string, address: string, now: Date): Promise<{ retryAt: Date; everyAddress: boolean } | null> {
    return (await retryAtSql.run(this.dataSource, userGuid, address, now)).rows[0] ?? null;
  }

  /**
   * Counts one wrong code, starting over when the last was at or before `forgottenBefore`, and sets when
   * the next try may come: after `freeFailures` (at least 1), base × 2^(failures − free − 1), capped; one
   * atomic statement, so concurrent guesses each count.
   */
  async recordFailure(
    userGuid: string,
    address: string,
    now: Date,
    forgottenBefore: Date,
    delay: { freeFailures: number; baseMs: number; maxMs: number },
  ): Promise<{ failures: number; retryAt: Date }> {
    const { rows } = await recordFailureSql.run(
      this.dataSource,
      userGuid,
      address,
      now,
      forgottenBefore,
      delay.freeFailures,
      delay.baseMs,
      delay.maxMs,
    );
    return rows[0];
  }

  /** A right code from this address forgets its wrong ones. */
  async clear(userGuid: string, address: string): Promise<void> {
    await clearSql.run(this.dataSource, userGuid, address);
  }

  /** Every address's count for a user (the CLI's `users unlock`). */
  async clearUser(userGuid: string): Promise<void> {
    await clearUserSql.run(this.dataSource, userGuid);
  }

  async deleteForgotten(forgottenBefore: Date, now: Date): Promise<number> {
    return (await deleteForgottenSql.run(this.dataSource, forgottenBefore, now)).rowCount;
  }
}
