import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A session's timeline (docs/console.md, "A session's timeline"): each status or hintCode change
 * the settlement wrote, with its time. No personal data: status and hint code only. Also an index
 * to find a session's webhook messages, progress ones included.
 */
export class CreateSessionEvents1795304200000 implements MigrationInterface {
  name = 'CreateSessionEvents1795304200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE session_events (
        id bigint GENERATED ALWAYS AS IDENTITY,
        session_id uuid NOT NULL,
        occurred_at timestamptz NOT NULL,
        status text NOT NULL,
        hint_code text,
        CONSTRAINT pk_session_events PRIMARY KEY (id),
        CONSTRAINT fk_session_events_session FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX ix_session_events_session ON session_events (session_id, id)`);
    await db.query(`CREATE INDEX ix_webhook_deliveries_session ON webhook_deliveries (session_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ix_webhook_deliveries_session`);
    await db.query(`DROP TABLE session_events`);
  }
}
