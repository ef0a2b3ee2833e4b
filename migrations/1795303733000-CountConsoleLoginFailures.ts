import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Wrong console login codes per user and client address, for progressive delays instead of a lockout
 * (docs/console.md, "Wrong codes"): a stranger's guesses slow down the stranger, not the member.
 */
export class CountConsoleLoginFailures1795303733000 implements MigrationInterface {
  name = 'CountConsoleLoginFailures1795303733000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE console_login_failures (
        user_guid uuid NOT NULL,
        address inet NOT NULL,
        failures integer NOT NULL,
        last_failed_at timestamptz NOT NULL,
        retry_at timestamptz NOT NULL,
        CONSTRAINT pk_console_login_failures PRIMARY KEY (user_guid, address)
      )`);
    await db.query(`CREATE INDEX ix_console_login_failures_last_failed ON console_login_failures (last_failed_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE console_login_failures`);
  }
}
