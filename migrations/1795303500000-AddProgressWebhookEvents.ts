import type { MigrationInterface, QueryRunner } from 'typeorm';

const FINAL_TYPES = `ARRAY['auth.session.completed', 'auth.session.failed', 'sign.session.completed', 'sign.session.failed']`;
const ALL_TYPES = `ARRAY['auth.session.completed', 'auth.session.failed', 'sign.session.completed', 'sign.session.failed', 'auth.session.updated', 'sign.session.updated']`;

/**
 * Progress events (docs/webhooks.md, "Progress events"): endpoints may subscribe to
 * auth.session.updated and sign.session.updated, and a session may have several of those messages
 * per endpoint; its final event stays at most one per session and endpoint.
 */
export class AddProgressWebhookEvents1795303500000 implements MigrationInterface {
  name = 'AddProgressWebhookEvents1795303500000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_endpoints DROP CONSTRAINT ck_webhook_endpoints_event_types`);
    await db.query(`
      ALTER TABLE webhook_endpoints ADD CONSTRAINT ck_webhook_endpoints_event_types CHECK (
        cardinality(event_types) > 0 AND event_types <@ ${ALL_TYPES})`);
    await db.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT uq_webhook_deliveries_session_endpoint`);
    await db.query(`
      CREATE UNIQUE INDEX uq_webhook_deliveries_session_endpoint ON webhook_deliveries (session_id, endpoint_id)
        WHERE event_type NOT IN ('auth.session.updated', 'sign.session.updated')`);
  }

  async down(db: QueryRunner): Promise<void> {
    // Progress messages and subscriptions go; an endpoint that wanted only progress has nothing left to receive.
    await db.query(`DELETE FROM webhook_deliveries WHERE event_type IN ('auth.session.updated', 'sign.session.updated')`);
    await db.query(`DROP INDEX uq_webhook_deliveries_session_endpoint`);
    await db.query(`
      ALTER TABLE webhook_deliveries ADD CONSTRAINT uq_webhook_deliveries_session_endpoint UNIQUE (session_id, endpoint_id)`);
    await db.query(`
      UPDATE webhook_endpoints
         SET event_types = ARRAY(SELECT t FROM unnest(event_types) AS t WHERE t = ANY (${FINAL_TYPES}))
       WHERE NOT event_types <@ ${FINAL_TYPES}`);
    await db.query(`DELETE FROM webhook_endpoints WHERE cardinality(event_types) = 0`);
    await db.query(`ALTER TABLE webhook_endpoints DROP CONSTRAINT ck_webhook_endpoints_event_types`);
    await db.query(`
      ALTER TABLE webhook_endpoints ADD CONSTRAINT ck_webhook_endpoints_event_types CHECK (
        cardinality(event_types) > 0 AND event_types <@ ${FINAL_TYPES})`);
  }
}
