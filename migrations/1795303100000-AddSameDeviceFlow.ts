import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The same-device flow and renewed orders (docs/same-device.md): a session keeps only a hash of its
 * return nonce, counts wrong ones, remembers the one accepted return, keeps its order's launch link
 * (encrypted) for `<eid-qr>`, and with autoRenew what it needs to start a new order; the simulator's
 * order book keeps the returnUrl its app page sends the person back to.
 */
export class AddSameDeviceFlow1795303100000 implements MigrationInterface {
  name = 'AddSameDeviceFlow1795303100000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE sessions
         ADD COLUMN return_nonce_hash bytea,
         ADD COLUMN return_nonce_failures smallint NOT NULL DEFAULT 0,
         ADD COLUMN returned_at timestamptz,
         ADD COLUMN launch_url_enc bytea,
         ADD COLUMN auto_renew boolean NOT NULL DEFAULT false,
         ADD COLUMN renewal_request_enc bytea,
         ADD COLUMN renewals integer NOT NULL DEFAULT 0`,
    );
    await db.query(
      `ALTER TABLE sessions
         ADD CONSTRAINT ck_sessions_return_nonce_failures CHECK (return_nonce_failures BETWEEN 0 AND 3),
         ADD CONSTRAINT ck_sessions_renewals CHECK (renewals >= 0)`,
    );
    await db.query(`ALTER TABLE simulator_orders ADD COLUMN return_url text`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE simulator_orders DROP COLUMN return_url`);
    await db.query(`ALTER TABLE sessions DROP CONSTRAINT ck_sessions_renewals, DROP CONSTRAINT ck_sessions_return_nonce_failures`);
    await db.query(
      `ALTER TABLE sessions DROP COLUMN renewals, DROP COLUMN renewal_request_enc, DROP COLUMN auto_renew,
         DROP COLUMN launch_url_enc, DROP COLUMN returned_at, DROP COLUMN return_nonce_failures, DROP COLUMN return_nonce_hash`,
    );
  }
}
