import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Evidence and the signed result (docs/evidence.md): a session keeps the texts it sent to the order,
 * the provider's evidence and its result token, each encrypted and erased with the personal data;
 * the simulator keeps the texts of its orders and the evidence it issued on approval.
 */
export class KeepSessionEvidence1795303200000 implements MigrationInterface {
  name = 'KeepSessionEvidence1795303200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE sessions ADD COLUMN signed_texts_enc bytea, ADD COLUMN evidence_enc bytea, ADD COLUMN result_token_enc bytea`,
    );
    await db.query(`ALTER TABLE simulator_orders ADD COLUMN signed_texts_enc bytea, ADD COLUMN evidence_enc bytea`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE simulator_orders DROP COLUMN evidence_enc, DROP COLUMN signed_texts_enc`);
    await db.query(`ALTER TABLE sessions DROP COLUMN result_token_enc, DROP COLUMN evidence_enc, DROP COLUMN signed_texts_enc`);
  }
}
