import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log's rows leave only by the retention purge or with their team (docs/audit.md,
 * "Append-only, retention"). A trigger refuses every other DELETE and every TRUNCATE, and the
 * owner's own UPDATE and TRUNCATE privileges are revoked. DELETE stays granted: the teams foreign
 * key's cascade runs as the table's owner.
 */
export class GuardAuditEventsAgainstDelete1796621489090 implements MigrationInterface {
  name = 'GuardAuditEventsAgainstDelete1796621489090';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION audit_events_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        purge_before timestamptz := NULLIF(current_setting('eidgw.audit_purge_before', true), '')::timestamptz;
      BEGIN
        -- A team's removal: the foreign key's cascade runs one trigger level below the DELETE on teams.
        IF pg_trigger_depth() > 1 THEN
          RETURN OLD;
        END IF;
        -- The retention purge names its cutoff for its own transaction; no entry younger than a day goes.
        IF purge_before IS NOT NULL AND OLD.occurred_at < purge_before AND OLD.occurred_at < now() - interval '1 day' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit_events is append-only: entries leave only by the retention purge';
      END $$`);
    await db.query(
      `CREATE TRIGGER tr_audit_events_delete_only_purged BEFORE DELETE ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_delete()`,
    );
    await db.query(`
      CREATE FUNCTION audit_events_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_events is append-only: it cannot be truncated';
      END $$`);
    await db.query(
      `CREATE TRIGGER tr_audit_events_no_truncate BEFORE TRUNCATE ON audit_events FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_truncate()`,
    );
    await db.query(`REVOKE UPDATE, TRUNCATE ON audit_events FROM PUBLIC, CURRENT_USER`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`GRANT UPDATE, TRUNCATE ON audit_events TO CURRENT_USER`);
    await db.query(`DROP TRIGGER tr_audit_events_no_truncate ON audit_events`);
    await db.query(`DROP FUNCTION audit_events_refuse_truncate()`);
    await db.query(`DROP TRIGGER tr_audit_events_delete_only_purged ON audit_events`);
    await db.query(`DROP FUNCTION audit_events_refuse_delete()`);
  }
}
