import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The team console (docs/console.md): its login knows no team until it knows the user, so a challenge
 * for an unknown contact has none; its per-address login limit; and a webhook test event, which
 * belongs to no session (docs/webhooks.md).
 */
export class AddTeamConsole1795302200000 implements MigrationInterface {
  name = 'AddTeamConsole1795302200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE otp_challenges ALTER COLUMN team_id DROP NOT NULL`);
    await db.query(`ALTER TABLE webhook_deliveries ALTER COLUMN session_id DROP NOT NULL`);
    await db.query(`
      CREATE TABLE console_login_windows (
        address inet NOT NULL,
        window_start timestamptz NOT NULL,
        requests integer NOT NULL,
        CONSTRAINT pk_console_login_windows PRIMARY KEY (address)
      )`);
    await db.query(`CREATE INDEX ix_console_login_windows_start ON console_login_windows (window_start)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE console_login_windows`);
    await db.query(`DELETE FROM webhook_deliveries WHERE session_id IS NULL`);
    await db.query(`ALTER TABLE webhook_deliveries ALTER COLUMN session_id SET NOT NULL`);
    await db.query(`DELETE FROM otp_challenges WHERE team_id IS NULL`);
    await db.query(`ALTER TABLE otp_challenges ALTER COLUMN team_id SET NOT NULL`);
  }
}
