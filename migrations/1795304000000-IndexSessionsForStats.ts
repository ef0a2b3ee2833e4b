import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console's overview (docs/console.md, "Overview") counts a team's sessions of one environment
 * over a time range. This index holds every column those counts read, so they are index-only scans
 * of the range, never reads of the session rows (which carry the encrypted payloads).
 */
export class IndexSessionsForStats1795304000000 implements MigrationInterface {
  name = 'IndexSessionsForStats1795304000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX ix_sessions_team_env_created ON sessions (team_id, environment, created_at)
         INCLUDE (provider, status, hint_code, completed_at)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ix_sessions_team_env_created`);
  }
}
