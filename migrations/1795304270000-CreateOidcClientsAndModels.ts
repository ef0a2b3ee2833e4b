import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The OpenID Provider (docs/oidc.md): the clients a team registers, and one table for every model
 * oidc-provider keeps (grants, codes, sessions, interactions, pushed requests, tokens, CIBA requests).
 * A model's payload is encrypted (it may carry a login_hint with a personal number); the columns
 * beside it are what the adapter looks rows up by.
 */
export class CreateOidcClientsAndModels1795304270000 implements MigrationInterface {
  name = 'CreateOidcClientsAndModels1795304270000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE oidc_clients (
        id uuid NOT NULL,
        team_id uuid NOT NULL,
        environment text NOT NULL,
        client_id text NOT NULL,
        name text NOT NULL,
        redirect_uris text[] NOT NULL,
        post_logout_redirect_uris text[] NOT NULL DEFAULT '{}',
        token_endpoint_auth_method text NOT NULL,
        secret_enc bytea,
        jwks jsonb,
        jwks_uri text,
        providers text[],
        subject_type text NOT NULL DEFAULT 'pairwise',
        require_par boolean NOT NULL DEFAULT false,
        personal_number_claim text,
        max_risk text,
        backchannel_token_delivery_mode text,
        backchannel_client_notification_endpoint text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT pk_oidc_clients PRIMARY KEY (id),
        CONSTRAINT uq_oidc_clients_client_id UNIQUE (client_id),
        CONSTRAINT fk_oidc_clients_team FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE,
        CONSTRAINT ck_oidc_clients_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT ck_oidc_clients_subject_type CHECK (subject_type IN ('pairwise', 'public')),
        CONSTRAINT ck_oidc_clients_auth_method CHECK (token_endpoint_auth_method IN
          ('client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'))
      )`);
    await db.query(`CREATE INDEX ix_oidc_clients_team ON oidc_clients (team_id, environment, created_at)`);
    await db.query(`
      CREATE TABLE oidc_models (
        model text NOT NULL,
        id text NOT NULL,
        payload_enc bytea NOT NULL,
        grant_id text,
        uid text,
        user_code text,
        expires_at timestamptz,
        consumed_at timestamptz,
        CONSTRAINT pk_oidc_models PRIMARY KEY (model, id)
      )`);
    await db.query(`CREATE INDEX ix_oidc_models_grant ON oidc_models (grant_id) WHERE grant_id IS NOT NULL`);
    await db.query(`CREATE INDEX ix_oidc_models_uid ON oidc_models (model, uid) WHERE uid IS NOT NULL`);
    await db.query(`CREATE INDEX ix_oidc_models_user_code ON oidc_models (model, user_code) WHERE user_code IS NOT NULL`);
    await db.query(`CREATE INDEX ix_oidc_models_expires ON oidc_models (expires_at) WHERE expires_at IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE oidc_models`);
    await db.query(`DROP TABLE oidc_clients`);
  }
}
