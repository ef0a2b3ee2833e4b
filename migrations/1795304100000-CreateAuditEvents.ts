import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (docs/audit.md): one row per management action, append-only. A trigger refuses
 * every UPDATE, so not even a bug in the service can rewrite history; rows leave only by the
 * retention purge (or with their team).
 */
export class CreateAuditEvents1795304100000 implements MigrationInterface {
  name = 'CreateAuditEvents1795304100000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE audit_events (
        id uuid NOT NULL,
        team_id uuid NOT NULL,
        environment text,
        occurred_at timestamptz NOT NULL,
        actor_type text NOT NULL,
        actor_id uuid,
        actor_label text,
        action text NOT NULL,
        target_type text NOT NULL,
        target_id text,
        details jsonb,
        client_address text,
        CONSTRAINT pk_audit_events PRIMARY KEY (id),
        CONSTRAINT fk_audit_events_team FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE,
        CONSTRAINT ck_audit_events_actor_type CHECK (actor_type IN ('member', 'operator')),
        CONSTRAINT ck_audit_events_environment CHECK (environment IN ('test', 'live'))
      )`);
    await db.query(`CREATE INDEX ix_audit_events_team_occurred ON audit_events (team_id, occurred_at DESC)`);
    await db.query(`CREATE INDEX ix_audit_events_occurred ON audit_events (occurred_at)`);
    await db.query(`
      CREATE FUNCTION audit_events_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_events is append-only';
      END $$`);
    await db.query(
      `CREATE TRIGGER tr_audit_events_append_only BEFORE UPDATE ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_update()`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE audit_events`);
    await db.query(`DROP FUNCTION audit_events_refuse_update()`);
  }
}
