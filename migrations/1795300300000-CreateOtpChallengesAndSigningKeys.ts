import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateOtpChallengesAndSigningKeys1795300300000 implements MigrationInterface {
  name = 'CreateOtpChallengesAndSigningKeys1795300300000';

  async up(db: QueryRunner): Promise<void> {
    // One row per userGuid: the live code (a resend overwrites it) and the per-user failure count.
    // user_id is null for a userGuid derived for an unknown phone or e-mail, which behaves alike.
    await db.query(`
      CREATE TABLE otp_challenges (
        user_guid uuid NOT NULL,
        user_id uuid,
        team_id uuid NOT NULL,
        code_hmac bytea,
        issued_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        used_at timestamptz,
        failures integer NOT NULL DEFAULT 0,
        locked_until timestamptz,
        CONSTRAINT pk_otp_challenges PRIMARY KEY (user_guid),
        CONSTRAINT fk_otp_challenges_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
        CONSTRAINT fk_otp_challenges_team FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE,
        CONSTRAINT ck_otp_challenges_counters CHECK (attempts >= 0 AND failures >= 0)
      )`);
    await db.query(`CREATE INDEX ix_otp_challenges_expires ON otp_challenges (expires_at)`);
    await db.query(`
      CREATE TABLE signing_keys (
        kid text NOT NULL,
        alg text NOT NULL,
        public_jwk jsonb NOT NULL,
        private_jwk_enc bytea NOT NULL,
        created_at timestamptz NOT NULL,
        retired_at timestamptz,
        verify_until timestamptz,
        CONSTRAINT pk_signing_keys PRIMARY KEY (kid),
        CONSTRAINT ck_signing_keys_alg CHECK (alg IN ('ES256', 'EdDSA')),
        CONSTRAINT ck_signing_keys_retired CHECK ((retired_at IS NULL) = (verify_until IS NULL))
      )`);
    // At most one key signs at a time, whatever replicas race to create or rotate it.
    await db.query(`CREATE UNIQUE INDEX uq_signing_keys_active ON signing_keys ((retired_at IS NULL)) WHERE retired_at IS NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE signing_keys`);
    await db.query(`DROP TABLE otp_challenges`);
  }
}
