import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The SAML front's service providers and its logins in progress (docs/saml.md). */
export class CreateSamlServiceProviders1796623915120 implements MigrationInterface {
  name = 'CreateSamlServiceProviders1796623915120';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE saml_service_providers (
        id uuid NOT NULL,
        team_id uuid NOT NULL,
        environment text NOT NULL,
        name text NOT NULL,
        entity_id text NOT NULL,
        acs_urls text[] NOT NULL,
        single_logout_url text,
        signing_certificate text NOT NULL,
        encryption_certificate text,
        providers text[],
        attributes text[] NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT pk_saml_service_providers PRIMARY KEY (id),
        CONSTRAINT fk_saml_service_providers_team FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE,
        CONSTRAINT ck_saml_service_providers_environment CHECK (environment IN ('test', 'live'))
      )`);
    // An AuthnRequest names its SP by the Issuer alone: one entityID is one SP in the whole deployment.
    await db.query(`CREATE UNIQUE INDEX uq_saml_service_providers_entity_id ON saml_service_providers (entity_id)`);
    await db.query(`CREATE INDEX ix_saml_service_providers_team ON saml_service_providers (team_id, environment)`);
    await db.query(`
      CREATE TABLE saml_logins (
        uid text NOT NULL,
        service_provider_id uuid NOT NULL,
        request_id text NOT NULL,
        payload_enc bytea NOT NULL,
        answered boolean NOT NULL DEFAULT false,
        expires_at timestamptz NOT NULL,
        CONSTRAINT pk_saml_logins PRIMARY KEY (uid),
        CONSTRAINT fk_saml_logins_service_provider FOREIGN KEY (service_provider_id)
          REFERENCES saml_service_providers (id) ON DELETE CASCADE
      )`);
    // A replayed AuthnRequest ID is refused by this index (docs/saml.md, "Checks").
    await db.query(`CREATE UNIQUE INDEX uq_saml_logins_request ON saml_logins (service_provider_id, request_id)`);
    await db.query(`CREATE INDEX ix_saml_logins_expires_at ON saml_logins (expires_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE saml_logins`);
    await db.query(`DROP TABLE saml_service_providers`);
  }
}
