import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { statement } from '../database/statement.js';

export interface NewChallenge {
  userGuid: string;
  userId: string | null;
  /** Null for a console challenge whose contact is no one's (docs/console.md). */
  teamId: string | null;
  hmac: Buffer;
  now: Date;
  expiresAt: Date;
}

const replaceCodeSql = statement<
  [userGuid: string, userId: string | null, teamId: string | null, hmac: Buffer, now: Date, expiresAt: Date, resendCutoff: Date]
>(
  `INSERT INTO otp_challenges AS c (user_guid, user_id, team_id, code_hmac, issued_at, expires_at)
   VALUES ($1, $2, $3, $4, $5, $6)
   ON CONFLICT (user_guid) DO UPDATE
     SET code_hmac = EXCLUDED.code_hmac, issued_at = EXCLUDED.issued_at, expires_at = EXCLUDED.expires_at,
         attempts = 0, used_at = NULL
     WHERE c.issued_at <= $7 AND (c.locked_until IS NULL OR c.locked_until <= $5)`,
);
const throttleSql = statement<[userGuid: string], { issued_at: Date; locked_until: Date | null }>(
  `SELECT issued_at, locked_until FROM otp_challenges WHERE user_guid = $1`,
);
const countTrySql = statement<
  [userGuid: string, teamId: string | null, now: Date, maxAttempts: number],
  { code_hmac: Buffer; attempts: number }
>(
  `UPDATE otp_challenges SET attempts = attempts + 1
    WHERE user_guid = $1 AND ($2::uuid IS NULL OR team_id = $2) AND code_hmac IS NOT NULL AND used_at IS NULL
      AND expires_at > $3 AND attempts < $4 AND (locked_until IS NULL OR locked_until <= $3)
    RETURNING code_hmac, attempts`,
);
const consumeSql = statement<[userGuid: string, now: Date, codeHmac: Buffer], { user_id: string | null; team_id: string | null }>(
  `UPDATE otp_challenges SET used_at = $2, failures = 0 WHERE user_guid = $1 AND used_at IS NULL AND code_hmac = $3 RETURNING user_id, team_id`,
);
const recordFailureSql = statement<
  [userGuid: string, threshold: number, now: Date, lockoutMs: number, memoryCutoff: Date],
  { locked_until: Date | null }
>(
  `WITH next AS (
     SELECT user_guid, failures + 1 >= $2::int AS locks,
            CASE WHEN last_locked_at > $5::timestamptz THEN lockouts + 1 ELSE 1 END AS lockouts
       FROM otp_challenges WHERE user_guid = $1 FOR UPDATE)
   UPDATE otp_challenges c
      SET failures = CASE WHEN next.locks THEN 0 ELSE c.failures + 1 END,
          lockouts = CASE WHEN next.locks THEN next.lockouts ELSE c.lockouts END,
          last_locked_at = CASE WHEN next.locks THEN $3::timestamptz ELSE c.last_locked_at END,
          locked_until = CASE WHEN next.locks THEN $3::timestamptz + $4::float8 * power(2, LEAST(next.lockouts - 1, 16)) * interval '1 millisecond' ELSE c.locked_until END,
          code_hmac = CASE WHEN next.locks THEN NULL ELSE c.code_hmac END
     FROM next
    WHERE c.user_guid = next.user_guid
    RETURNING c.locked_until`,
);
const unlockSql = statement<[userGuid: string]>(
  `UPDATE otp_challenges SET failures = 0, lockouts = 0, locked_until = NULL, last_locked_at = NULL WHERE user_guid = $1`,
);
const voidCodeSql = statement<[userGuid: string, hmac: Buffer, now: Date, issuedAt: Date]>(
  `UPDATE otp_challenges SET code_hmac = NULL, expires_at = $3, issued_at = $4 WHERE user_guid = $1 AND code_hmac = $2`,
);
const deleteExpiredSql = statement<[expiredBefore: Date, issuedBefore: Date, now: Date, lockedBefore: Date]>(
  `DELETE FROM otp_challenges WHERE expires_at < $1 AND issued_at < $2 AND (locked_until IS NULL OR locked_until < $3)
      AND (last_locked_at IS NULL OR last_locked_at < $4)`,
);

/** Every statement on otp_challenges, one row per userGuid. */
@Injectable()
export class OtpChallengeStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Writes a new code over the old one, unless one was issued after `resendCutoff` or the user is
   * locked out; false then.
   */
  async replaceCode(row: NewChallenge, resendCutoff: Date): Promise<boolean> {
    const { rowCount } = await replaceCodeSql.run(
      this.dataSource,
      row.userGuid,
      row.userId,
      row.teamId,
      row.hmac,
      row.now,
      row.expiresAt,
      resendCutoff,
    );
    return rowCount > 0;
  }

  /** When the current code was issued and until when the user is locked out, to say when to retry. */
  async throttleOf(userGuid: string): Promise<{ issuedAt: Date; lockedUntil: Date | null } | null> {
    return (await throttleSql.run(this.dataSource, userGuid)).rows[0] ?? null;
  }

  /**
   * Counts a try against a live code in its own statement, before any comparison (Kratos' order), so
   * parallel guesses cannot exceed the allowance under any isolation level. Null when no code may be tried.
   * A null team (the console) tries any team's challenge.
   */
  async countTry(
    userGuid: string,
    teamId: string | null,
    now: Date,
    maxAttempts: number,
  ): Promise<{ codeHmac: Buffer; attempts: number } | null> {
    return (await countTrySql.run(this.dataSource, userGuid, teamId, now, maxAttempts)).rows[0] ?? null;
  }

  /** Marks the code used; of two racing, only the one that flips used_at gets the row (and its user). */
  async consume(userGuid: string, now: Date, codeHmac: Buffer): Promise<{ userId: string | null; teamId: string | null } | null> {
    return (await consumeSql.run(this.dataSource, userGuid, now, codeHmac)).rows[0] ?? null;
  }

  /**
   * Counts a wrong code; at `threshold` the user is locked out for `lockoutMs` and the count restarts.
   * A lockout after one that began after `memoryCutoff` lasts twice as long as that one (docs/otp-and-tokens.md).
   */
  async recordFailure(
    userGuid: string,
    threshold: number,
    now: Date,
    lockoutMs: number,
    memoryCutoff: Date,
  ): Promise<{ lockedUntil: Date | null } | null> {
    return (await recordFailureSql.run(this.dataSource, userGuid, threshold, now, lockoutMs, memoryCutoff)).rows[0] ?? null;
  }

  /** Lifts a user's lockout and forgets their wrong codes (the CLI's `users unlock`). */
  async unlock(userGuid: string): Promise<void> {
    await unlockSql.run(this.dataSource, userGuid);
  }

  /** Voids a code that could not be delivered, with an issue time that does not hold back the retry. */
  async voidCode(userGuid: string, hmac: Buffer, now: Date, issuedAt: Date): Promise<void> {
    await voidCodeSql.run(this.dataSource, userGuid, hmac, now, issuedAt);
  }

  /** Challenges long expired, not locked, and whose last lockout is older than `lockedBefore`. */
  async deleteExpired(expiredBefore: Date, issuedBefore: Date, now: Date, lockedBefore: Date): Promise<number> {
    return (await deleteExpiredSql.run(this.dataSource, expiredBefore, issuedBefore, now, lockedBefore)).rowCount;
  }
}
