import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sessions carry an operation (auth, sign) and a channel (app, phone); existing rows are app-channel
 * authentications. The simulator's order book learns the same, and phone orders have no QR, no
 * autostart token and no end-user IP (docs/api.md, "Signing and the phone channel"). Webhook
 * endpoints may subscribe to sign.session.completed and sign.session.failed.
 */
export class AddSessionOperationAndChannel1795301700000 implements MigrationInterface {
  name = 'AddSessionOperationAndChannel1795301700000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE sessions
        ADD COLUMN operation text NOT NULL DEFAULT 'auth',
        ADD COLUMN channel text NOT NULL DEFAULT 'app',
        ADD CONSTRAINT ck_sessions_operation CHECK (operation IN ('auth', 'sign')),
        ADD CONSTRAINT ck_sessions_channel CHECK (channel IN ('app', 'phone'))`);
    await db.query(`
      ALTER TABLE simulator_orders
        ADD COLUMN operation text NOT NULL DEFAULT 'auth',
        ADD COLUMN channel text NOT NULL DEFAULT 'app',
        ADD COLUMN personal_number_hash bytea,
        ADD COLUMN user_visible_data_enc bytea,
        ALTER COLUMN end_user_ip DROP NOT NULL,
        ALTER COLUMN qr_start_token DROP NOT NULL,
        ALTER COLUMN qr_start_secret_enc DROP NOT NULL,
        ALTER COLUMN auto_start_token_hash DROP NOT NULL,
        DROP CONSTRAINT ck_simulator_orders_action,
        ADD CONSTRAINT ck_simulator_orders_action CHECK (action IN ('approve', 'cancel', 'decline')),
        ADD CONSTRAINT ck_simulator_orders_operation CHECK (operation IN ('auth', 'sign')),
        ADD CONSTRAINT ck_simulator_orders_channel CHECK (channel IN ('app', 'phone')),
        ADD CONSTRAINT ck_simulator_orders_phone CHECK ((channel = 'phone') = (personal_number_hash IS NOT NULL))`);
    // Endpoints subscribe to sign events by type; existing ones keep the types they chose.
    await db.query(`ALTER TABLE webhook_endpoints DROP CONSTRAINT ck_webhook_endpoints_event_types`);
    await db.query(`
      ALTER TABLE webhook_endpoints ADD CONSTRAINT ck_webhook_endpoints_event_types CHECK (
        cardinality(event_types) > 0
        AND event_types <@ ARRAY['auth.session.completed', 'auth.session.failed', 'sign.session.completed', 'sign.session.failed'])`);
    // POST /simulator/phone: the newest order waiting for that person's call.
    await db.query(`
      CREATE INDEX ix_simulator_orders_phone_waiting ON simulator_orders (personal_number_hash, created_at DESC)
        WHERE channel = 'phone' AND scanned_at IS NULL AND cancelled_at IS NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    // Sign subscriptions go; an endpoint that wanted only sign events has nothing left to receive.
    await db.query(`
      UPDATE webhook_endpoints
         SET event_types = ARRAY(SELECT t FROM unnest(event_types) AS t WHERE t LIKE 'auth.%')
       WHERE event_types && ARRAY['sign.session.completed', 'sign.session.failed']`);
    await db.query(`DELETE FROM webhook_endpoints WHERE cardinality(event_types) = 0`);
    await db.query(`ALTER TABLE webhook_endpoints DROP CONSTRAINT ck_webhook_endpoints_event_types`);
    await db.query(`
      ALTER TABLE webhook_endpoints ADD CONSTRAINT ck_webhook_endpoints_event_types CHECK (
        cardinality(event_types) > 0 AND event_types <@ ARRAY['auth.session.completed', 'auth.session.failed'])`);
    await db.query(`DROP INDEX ix_simulator_orders_phone_waiting`);
    // Phone orders cannot exist without the columns that describe them.
    await db.query(`DELETE FROM simulator_orders WHERE channel = 'phone'`);
    await db.query(`UPDATE simulator_orders SET action = 'cancel' WHERE action = 'decline'`);
    await db.query(`
      ALTER TABLE simulator_orders
        DROP CONSTRAINT ck_simulator_orders_phone,
        DROP CONSTRAINT ck_simulator_orders_channel,
        DROP CONSTRAINT ck_simulator_orders_operation,
        DROP CONSTRAINT ck_simulator_orders_action,
        ADD CONSTRAINT ck_simulator_orders_action CHECK (action IN ('approve', 'cancel')),
        ALTER COLUMN auto_start_token_hash SET NOT NULL,
        ALTER COLUMN qr_start_secret_enc SET NOT NULL,
        ALTER COLUMN qr_start_token SET NOT NULL,
        ALTER COLUMN end_user_ip SET NOT NULL,
        DROP COLUMN user_visible_data_enc,
        DROP COLUMN personal_number_hash,
        DROP COLUMN channel,
        DROP COLUMN operation`);
    await db.query(`
      ALTER TABLE sessions
        DROP CONSTRAINT ck_sessions_channel,
        DROP CONSTRAINT ck_sessions_operation,
        DROP COLUMN channel,
        DROP COLUMN operation`);
  }
}
