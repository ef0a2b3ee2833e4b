import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each key last authenticated a request, to within a minute (docs/security.md, "Last used"):
 * written in batches off the request path, never by the request itself.
 */
export class RecordApiKeyLastUse1795303600000 implements MigrationInterface {
  name = 'RecordApiKeyLastUse1795303600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE api_keys DROP COLUMN last_used_at`);
  }
}
