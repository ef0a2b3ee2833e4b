import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Claims go round the endpoints with due messages (docs/webhooks.md, fairness): each endpoint's
 * oldest due messages by index. Receivers' answers of deliveries already erased go too, and those
 * kept are cut to the 256 bytes the attempt log now keeps.
 */
export class IndexDueDeliveriesByEndpoint1795301400001 implements MigrationInterface {
  name = 'IndexDueDeliveriesByEndpoint1795301400001';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX ix_webhook_deliveries_endpoint_due ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending'`,
    );
    await db.query(
      `UPDATE webhook_attempts a SET response_excerpt = NULL FROM webhook_deliveries d
        WHERE d.id = a.delivery_id AND d.payload_enc IS NULL AND a.response_excerpt IS NOT NULL`,
    );
    await db.query(`UPDATE webhook_attempts SET response_excerpt = left(response_excerpt, 64) WHERE octet_length(response_excerpt) > 256`);
  }

  async down(db: QueryRunner): Promise<void> {
    // Erased answers cannot come back; only the index goes.
    await db.query(`DROP INDEX ix_webhook_deliveries_endpoint_due`);
  }
}
