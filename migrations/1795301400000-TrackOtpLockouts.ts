import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A user's lockouts within 24 h double each next one (docs/otp-and-tokens.md). */
export class TrackOtpLockouts1795301400000 implements MigrationInterface {
  name = 'TrackOtpLockouts1795301400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE otp_challenges ADD COLUMN lockouts integer NOT NULL DEFAULT 0, ADD COLUMN last_locked_at timestamptz`);
    await db.query(`ALTER TABLE otp_challenges ADD CONSTRAINT ck_otp_challenges_lockouts CHECK (lockouts >= 0)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE otp_challenges DROP CONSTRAINT ck_otp_challenges_lockouts`);
    await db.query(`ALTER TABLE otp_challenges DROP COLUMN last_locked_at, DROP COLUMN lockouts`);
  }
}
