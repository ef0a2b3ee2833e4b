import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateTeamsUsersApiKeys1795300000000 implements MigrationInterface {
  name = 'CreateTeamsUsersApiKeys1795300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE teams (
        id uuid NOT NULL,
        name text NOT NULL,
        plan text NOT NULL DEFAULT 'free',
        extra_features text[] NOT NULL DEFAULT '{}',
        has_subscription boolean NOT NULL DEFAULT false,
        subscription_ends_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_teams PRIMARY KEY (id),
        CONSTRAINT ck_teams_plan CHECK (plan IN ('free', 'pro', 'max', 'enterprise'))
      )`);
    await db.query(`
      CREATE TABLE users (
        id uuid NOT NULL,
        team_id uuid NOT NULL,
        email text,
        phone text,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_users PRIMARY KEY (id),
        CONSTRAINT fk_users_team FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE,
        CONSTRAINT ck_users_contact CHECK (email IS NOT NULL OR phone IS NOT NULL)
      )`);
    await db.query(`CREATE UNIQUE INDEX uq_users_email ON users (lower(email)) WHERE email IS NOT NULL`);
    await db.query(`CREATE UNIQUE INDEX uq_users_phone ON users (phone) WHERE phone IS NOT NULL`);
    await db.query(`CREATE INDEX ix_users_team ON users (team_id)`);
    await db.query(`
      CREATE TABLE api_keys (
        id uuid NOT NULL,
        team_id uuid NOT NULL,
        name text,
        environment text NOT NULL,
        key_hash bytea NOT NULL,
        display_prefix text NOT NULL,
        last_four text NOT NULL,
        scopes text[] NOT NULL,
        valid_until timestamptz,
        blocked_until timestamptz,
        per_minute_limit integer,
        monthly_limit integer,
        ip_limit integer,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_api_keys PRIMARY KEY (id),
        CONSTRAINT fk_api_keys_team FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE,
        CONSTRAINT uq_api_keys_hash UNIQUE (key_hash),
        CONSTRAINT ck_api_keys_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT ck_api_keys_limits CHECK (
          coalesce(per_minute_limit, 1) > 0 AND coalesce(monthly_limit, 1) > 0 AND coalesce(ip_limit, 1) > 0)
      )`);
    await db.query(`CREATE INDEX ix_api_keys_team ON api_keys (team_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE api_keys`);
    await db.query(`DROP TABLE users`);
    await db.query(`DROP TABLE teams`);
  }
}
