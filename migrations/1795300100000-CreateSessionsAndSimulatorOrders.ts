import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateSessionsAndSimulatorOrders1795300100000 implements MigrationInterface {
  name = 'CreateSessionsAndSimulatorOrders1795300100000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE sessions (
        id uuid NOT NULL,
        team_id uuid NOT NULL,
        api_key_id uuid,
        environment text NOT NULL,
        provider text NOT NULL,
        order_ref text NOT NULL,
        status text NOT NULL,
        hint_code text,
        qr_start_token uuid,
        qr_start_secret_enc bytea,
        order_time timestamptz NOT NULL,
        end_user_ip text,
        metadata jsonb,
        completion_enc bytea,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        completed_at timestamptz,
        last_collected_at timestamptz NOT NULL,
        pii_purged_at timestamptz,
        CONSTRAINT pk_sessions PRIMARY KEY (id),
        CONSTRAINT fk_sessions_team FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE,
        CONSTRAINT fk_sessions_api_key FOREIGN KEY (api_key_id) REFERENCES api_keys (id) ON DELETE SET NULL,
        CONSTRAINT ck_sessions_status CHECK (status IN ('pending', 'complete', 'failed')),
        CONSTRAINT ck_sessions_completed CHECK ((status = 'pending') = (completed_at IS NULL))
      )`);
    await db.query(`CREATE INDEX ix_sessions_team_created ON sessions (team_id, created_at DESC)`);
    // The collector's claim: pending sessions whose last collect is oldest.
    await db.query(`CREATE INDEX ix_sessions_pending_due ON sessions (last_collected_at) WHERE status = 'pending'`);
    await db.query(`CREATE INDEX ix_sessions_pii_due ON sessions (completed_at) WHERE pii_purged_at IS NULL AND status <> 'pending'`);
    await db.query(`
      CREATE TABLE simulator_orders (
        order_ref uuid NOT NULL,
        end_user_ip text NOT NULL,
        qr_start_token uuid NOT NULL,
        qr_start_secret_enc bytea NOT NULL,
        auto_start_token_hash bytea NOT NULL,
        created_at timestamptz NOT NULL,
        scanned_at timestamptz,
        action text,
        user_enc bytea,
        cancelled_at timestamptz,
        CONSTRAINT pk_simulator_orders PRIMARY KEY (order_ref),
        CONSTRAINT uq_simulator_orders_qr_start_token UNIQUE (qr_start_token),
        CONSTRAINT uq_simulator_orders_auto_start_token UNIQUE (auto_start_token_hash),
        CONSTRAINT ck_simulator_orders_action CHECK (action IN ('approve', 'cancel'))
      )`);
    await db.query(`CREATE INDEX ix_simulator_orders_created ON simulator_orders (created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE simulator_orders`);
    await db.query(`DROP TABLE sessions`);
  }
}
