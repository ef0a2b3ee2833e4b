import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The upstream OpenID providers' sign-ins (docs/upstream-oidc.md). */
export class CreateUpstreamOidcOrders1795305100000 implements MigrationInterface {
  name = 'CreateUpstreamOidcOrders1795305100000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE upstream_oidc_orders (
        order_ref uuid NOT NULL,
        upstream text NOT NULL,
        environment text NOT NULL,
        status text NOT NULL,
        hint_code text,
        state_hash bytea,
        secrets_enc bytea,
        return_url_enc bytea,
        completion_enc bytea,
        created_at timestamptz NOT NULL,
        CONSTRAINT pk_upstream_oidc_orders PRIMARY KEY (order_ref),
        CONSTRAINT ck_upstream_oidc_orders_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT ck_upstream_oidc_orders_status CHECK (status IN ('created', 'started', 'complete', 'failed'))
      )`);
    await db.query(
      `CREATE UNIQUE INDEX uq_upstream_oidc_orders_state_hash ON upstream_oidc_orders (state_hash) WHERE state_hash IS NOT NULL`,
    );
    await db.query(`CREATE INDEX ix_upstream_oidc_orders_created_at ON upstream_oidc_orders (created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE upstream_oidc_orders`);
  }
}
