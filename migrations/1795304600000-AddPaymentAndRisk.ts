import type { MigrationInterface, QueryRunner } from 'typeorm';

const OLD_TYPES = [
  'auth.session.completed',
  'auth.session.failed',
  'sign.session.completed',
  'sign.session.failed',
  'auth.session.updated',
  'sign.session.updated',
];
const NEW_TYPES = [...OLD_TYPES, 'payment.session.completed', 'payment.session.failed', 'payment.session.updated'];
const sqlArray = (values: string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(', ')}]`;
const OLD_PROGRESS = `('auth.session.updated', 'sign.session.updated')`;
const NEW_PROGRESS = `('auth.session.updated', 'sign.session.updated', 'payment.session.updated')`;

/**
 * Payment sessions and BankID's risk indication (docs/api.md, "Payment", "Risk"): sessions and the
 * simulator's orders may be payments, the simulator keeps the transaction its app shows, webhook
 * endpoints may subscribe to payment.session.*, and a key (and each session, as started) may carry
 * the highest risk it accepts.
 */
export class AddPaymentAndRisk1795304600000 implements MigrationInterface {
  name = 'AddPaymentAndRisk1795304600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE sessions
        DROP CONSTRAINT ck_sessions_operation,
        ADD CONSTRAINT ck_sessions_operation CHECK (operation IN ('auth', 'sign', 'payment')),
        ADD COLUMN max_risk text,
        ADD CONSTRAINT ck_sessions_max_risk CHECK (max_risk IN ('low', 'moderate'))`);
    await db.query(`
      ALTER TABLE api_keys
        ADD COLUMN max_risk text,
        ADD CONSTRAINT ck_api_keys_max_risk CHECK (max_risk IN ('low', 'moderate'))`);
    await db.query(`
      ALTER TABLE simulator_orders
        DROP CONSTRAINT ck_simulator_orders_operation,
        ADD CONSTRAINT ck_simulator_orders_operation CHECK (operation IN ('auth', 'sign', 'payment')),
        ADD COLUMN transaction_enc bytea`);
    await db.query(`ALTER TABLE webhook_endpoints DROP CONSTRAINT ck_webhook_endpoints_event_types`);
    await db.query(`
      ALTER TABLE webhook_endpoints ADD CONSTRAINT ck_webhook_endpoints_event_types CHECK (
        cardinality(event_types) > 0 AND event_types <@ ${sqlArray(NEW_TYPES)})`);
    // A session's final event stays at most one per endpoint; payment progress events may repeat.
    await db.query(`DROP INDEX uq_webhook_deliveries_session_endpoint`);
    await db.query(`
      CREATE UNIQUE INDEX uq_webhook_deliveries_session_endpoint ON webhook_deliveries (session_id, endpoint_id)
        WHERE event_type NOT IN ${NEW_PROGRESS}`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM webhook_deliveries WHERE event_type LIKE 'payment.%'`);
    await db.query(`DROP INDEX uq_webhook_deliveries_session_endpoint`);
    await db.query(`
      CREATE UNIQUE INDEX uq_webhook_deliveries_session_endpoint ON webhook_deliveries (session_id, endpoint_id)
        WHERE event_type NOT IN ${OLD_PROGRESS}`);
    // Payment subscriptions go; an endpoint that wanted only payment events has nothing left to receive.
    await db.query(`
      UPDATE webhook_endpoints
         SET event_types = ARRAY(SELECT t FROM unnest(event_types) AS t WHERE t = ANY (${sqlArray(OLD_TYPES)}))
       WHERE NOT event_types <@ ${sqlArray(OLD_TYPES)}`);
    await db.query(`DELETE FROM webhook_endpoints WHERE cardinality(event_types) = 0`);
    await db.query(`ALTER TABLE webhook_endpoints DROP CONSTRAINT ck_webhook_endpoints_event_types`);
    await db.query(`
      ALTER TABLE webhook_endpoints ADD CONSTRAINT ck_webhook_endpoints_event_types CHECK (
        cardinality(event_types) > 0 AND event_types <@ ${sqlArray(OLD_TYPES)})`);
    // Payment sessions and orders cannot exist under the old constraints.
    await db.query(`DELETE FROM simulator_orders WHERE operation = 'payment'`);
    await db.query(`
      ALTER TABLE simulator_orders
        DROP COLUMN transaction_enc,
        DROP CONSTRAINT ck_simulator_orders_operation,
        ADD CONSTRAINT ck_simulator_orders_operation CHECK (operation IN ('auth', 'sign'))`);
    await db.query(`ALTER TABLE api_keys DROP CONSTRAINT ck_api_keys_max_risk, DROP COLUMN max_risk`);
    await db.query(`DELETE FROM sessions WHERE operation = 'payment'`);
    await db.query(`
      ALTER TABLE sessions
        DROP CONSTRAINT ck_sessions_max_risk,
        DROP COLUMN max_risk,
        DROP CONSTRAINT ck_sessions_operation,
        ADD CONSTRAINT ck_sessions_operation CHECK (operation IN ('auth', 'sign'))`);
  }
}
