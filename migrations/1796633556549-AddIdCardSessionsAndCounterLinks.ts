import type { MigrationInterface, QueryRunner } from 'typeorm';

const OLD_TYPES = [
  'auth.session.completed',
  'auth.session.failed',
  'sign.session.completed',
  'sign.session.failed',
  'auth.session.updated',
  'sign.session.updated',
  'payment.session.completed',
  'payment.session.failed',
  'payment.session.updated',
];
const NEW_TYPES = [...OLD_TYPES, 'idcard.session.completed'];
const sqlArray = (values: string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(', ')}]`;

/**
 * Digital ID cards at a counter (docs/idcard.md): sessions of operation idcard on the counter channel,
 * webhook endpoints may subscribe to idcard.session.completed, and a team's counter links (a hash of
 * each link's token, never the token).
 */
export class AddIdCardSessionsAndCounterLinks1796633556549 implements MigrationInterface {
  name = 'AddIdCardSessionsAndCounterLinks1796633556549';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE sessions
        DROP CONSTRAINT ck_sessions_operation,
        ADD CONSTRAINT ck_sessions_operation CHECK (operation IN ('auth', 'sign', 'payment', 'idcard')),
        DROP CONSTRAINT ck_sessions_channel,
        ADD CONSTRAINT ck_sessions_channel CHECK (channel IN ('app', 'phone', 'counter'))`);
    // The simulated app's ID cards are simulator orders of their own kind.
    await db.query(`
      ALTER TABLE simulator_orders
        DROP CONSTRAINT ck_simulator_orders_operation,
        ADD CONSTRAINT ck_simulator_orders_operation CHECK (operation IN ('auth', 'sign', 'payment', 'idcard')),
        DROP CONSTRAINT ck_simulator_orders_channel,
        ADD CONSTRAINT ck_simulator_orders_channel CHECK (channel IN ('app', 'phone', 'counter'))`);
    await db.query(`ALTER TABLE webhook_endpoints DROP CONSTRAINT ck_webhook_endpoints_event_types`);
    await db.query(`
      ALTER TABLE webhook_endpoints ADD CONSTRAINT ck_webhook_endpoints_event_types CHECK (
        cardinality(event_types) > 0 AND event_types <@ ${sqlArray(NEW_TYPES)})`);
    await db.query(`
      CREATE TABLE counter_links (
        id uuid NOT NULL,
        team_id uuid NOT NULL,
        environment text NOT NULL,
        provider text NOT NULL,
        label text NOT NULL,
        token_hash bytea NOT NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz,
        window_started_at timestamptz,
        window_count integer NOT NULL DEFAULT 0,
        CONSTRAINT pk_counter_links PRIMARY KEY (id),
        CONSTRAINT fk_counter_links_team FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE,
        CONSTRAINT ck_counter_links_environment CHECK (environment IN ('test', 'live'))
      )`);
    await db.query(`CREATE UNIQUE INDEX uq_counter_links_token_hash ON counter_links (token_hash)`);
    await db.query(`CREATE INDEX ix_counter_links_team ON counter_links (team_id, environment)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE counter_links`);
    await db.query(`DELETE FROM webhook_deliveries WHERE event_type LIKE 'idcard.%'`);
    await db.query(`UPDATE webhook_endpoints SET event_types = array_remove(event_types, 'idcard.session.completed')`);
    await db.query(`DELETE FROM webhook_endpoints WHERE cardinality(event_types) = 0`);
    await db.query(`ALTER TABLE webhook_endpoints DROP CONSTRAINT ck_webhook_endpoints_event_types`);
    await db.query(`
      ALTER TABLE webhook_endpoints ADD CONSTRAINT ck_webhook_endpoints_event_types CHECK (
        cardinality(event_types) > 0 AND event_types <@ ${sqlArray(OLD_TYPES)})`);
    await db.query(`DELETE FROM simulator_orders WHERE operation = 'idcard'`);
    await db.query(`
      ALTER TABLE simulator_orders
        DROP CONSTRAINT ck_simulator_orders_operation,
        ADD CONSTRAINT ck_simulator_orders_operation CHECK (operation IN ('auth', 'sign', 'payment')),
        DROP CONSTRAINT ck_simulator_orders_channel,
        ADD CONSTRAINT ck_simulator_orders_channel CHECK (channel IN ('app', 'phone'))`);
    await db.query(`DELETE FROM sessions WHERE operation = 'idcard'`);
    await db.query(`
      ALTER TABLE sessions
        DROP CONSTRAINT ck_sessions_operation,
        ADD CONSTRAINT ck_sessions_operation CHECK (operation IN ('auth', 'sign', 'payment')),
        DROP CONSTRAINT ck_sessions_channel,
        ADD CONSTRAINT ck_sessions_channel CHECK (channel IN ('app', 'phone'))`);
  }
}
