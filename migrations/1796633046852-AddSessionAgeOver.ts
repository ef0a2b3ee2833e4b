import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An age-only session (docs/age-verification.md): the age it checks. Such a session keeps and answers
 * only the age answer, never the person.
 */
export class AddSessionAgeOver1796633046852 implements MigrationInterface {
  name = 'AddSessionAgeOver1796633046852';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE sessions ADD COLUMN age_over smallint`);
    await db.query(`ALTER TABLE sessions ADD CONSTRAINT ck_sessions_age_over CHECK (age_over IN (15, 16, 18, 21))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE sessions DROP CONSTRAINT ck_sessions_age_over`);
    await db.query(`ALTER TABLE sessions DROP COLUMN age_over`);
  }
}
