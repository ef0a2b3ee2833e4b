import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Member tokens revoked before they expire (docs/otp-and-tokens.md, "Revocation"): the token's `jti`
 * and its expiry, so a row is kept only as long as the token could still verify.
 */
export class CreateRevokedTokens1795304650000 implements MigrationInterface {
  name = 'CreateRevokedTokens1795304650000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE revoked_tokens (
        token_id uuid NOT NULL,
        expires_at timestamptz NOT NULL,
        CONSTRAINT pk_revoked_tokens PRIMARY KEY (token_id)
      )`);
    await db.query(`CREATE INDEX ix_revoked_tokens_expires_at ON revoked_tokens (expires_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE revoked_tokens`);
  }
}
