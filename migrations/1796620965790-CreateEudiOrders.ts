import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The EUDI Wallet verifier's presentation requests (docs/eudi-wallet.md). */
export class CreateEudiOrders1796620965790 implements MigrationInterface {
  name = 'CreateEudiOrders1796620965790';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE eudi_orders (
        order_ref uuid NOT NULL,
        environment text NOT NULL,
        status text NOT NULL,
        hint_code text,
        state_hash bytea NOT NULL,
        secrets_enc bytea,
        return_url_enc bytea,
        completion_enc bytea,
        request_fetched_at timestamptz,
        created_at timestamptz NOT NULL,
        CONSTRAINT pk_eudi_orders PRIMARY KEY (order_ref),
        CONSTRAINT ck_eudi_orders_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT ck_eudi_orders_status CHECK (status IN ('pending', 'complete', 'failed'))
      )`);
    await db.query(`CREATE UNIQUE INDEX uq_eudi_orders_state_hash ON eudi_orders (state_hash)`);
    await db.query(`CREATE INDEX ix_eudi_orders_created_at ON eudi_orders (created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE eudi_orders`);
  }
}
