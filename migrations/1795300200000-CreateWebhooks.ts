import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateWebhooks1795300200000 implements MigrationInterface {
  name = 'CreateWebhooks1795300200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_endpoints (
        id uuid NOT NULL,
        team_id uuid NOT NULL,
        environment text NOT NULL,
        url text NOT NULL,
        description text,
        event_types text[] NOT NULL,
        secret_enc bytea NOT NULL,
        previous_secret_enc bytea,
        previous_secret_expires_at timestamptz,
        disabled_at timestamptz,
        disabled_reason text,
        failing_since timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT pk_webhook_endpoints PRIMARY KEY (id),
        CONSTRAINT fk_webhook_endpoints_team FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE,
        CONSTRAINT ck_webhook_endpoints_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT ck_webhook_endpoints_event_types CHECK (
          cardinality(event_types) > 0 AND event_types <@ ARRAY['auth.session.completed', 'auth.session.failed']),
        CONSTRAINT ck_webhook_endpoints_disabled CHECK (
          (disabled_at IS NULL AND disabled_reason IS NULL)
          OR (disabled_at IS NOT NULL AND disabled_reason IN ('manual', 'failing', 'gone'))),
        CONSTRAINT ck_webhook_endpoints_previous_secret CHECK ((previous_secret_enc IS NULL) = (previous_secret_expires_at IS NULL))
      )`);
    // The outbox looks up a team's endpoints inside the transaction that ends each session.
    await db.query(`CREATE INDEX ix_webhook_endpoints_team ON webhook_endpoints (team_id, environment)`);

    await db.query(`
      CREATE TABLE webhook_deliveries (
        id uuid NOT NULL,
        message_id text NOT NULL,
        team_id uuid NOT NULL,
        endpoint_id uuid NOT NULL,
        session_id uuid NOT NULL,
        event_type text NOT NULL,
        event_at timestamptz NOT NULL,
        payload_enc bytea,
        status text NOT NULL,
        attempt_count integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        manual_attempt boolean NOT NULL DEFAULT false,
        lease_token uuid,
        lease_expires_at timestamptz,
        last_attempt_at timestamptz,
        last_status_code integer,
        last_error text,
        delivered_at timestamptz,
        finished_at timestamptz,
        payload_purged_at timestamptz,
        created_at timestamptz NOT NULL,
        CONSTRAINT pk_webhook_deliveries PRIMARY KEY (id),
        CONSTRAINT uq_webhook_deliveries_message_id UNIQUE (message_id),
        CONSTRAINT uq_webhook_deliveries_session_endpoint UNIQUE (session_id, endpoint_id),
        CONSTRAINT fk_webhook_deliveries_team FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE,
        CONSTRAINT fk_webhook_deliveries_endpoint FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        CONSTRAINT fk_webhook_deliveries_session FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
        CONSTRAINT ck_webhook_deliveries_status CHECK (status IN ('pending', 'delivered', 'failed')),
        CONSTRAINT ck_webhook_deliveries_due CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL)),
        CONSTRAINT ck_webhook_deliveries_finished CHECK ((status = 'pending') = (finished_at IS NULL))
      )`);
    // The dispatchers' claim: pending messages, oldest due first.
    await db.query(`CREATE INDEX ix_webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await db.query(`CREATE INDEX ix_webhook_deliveries_team_created ON webhook_deliveries (team_id, created_at DESC)`);
    await db.query(`CREATE INDEX ix_webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id)`);
    await db.query(
      `CREATE INDEX ix_webhook_deliveries_payload_due ON webhook_deliveries (finished_at) WHERE payload_enc IS NOT NULL AND status <> 'pending'`,
    );

    await db.query(`
      CREATE TABLE webhook_attempts (
        id uuid NOT NULL,
        delivery_id uuid NOT NULL,
        attempt_number integer NOT NULL,
        attempted_at timestamptz NOT NULL,
        trigger text NOT NULL,
        outcome text NOT NULL,
        status_code integer,
        latency_ms integer NOT NULL,
        error text,
        response_excerpt text,
        CONSTRAINT pk_webhook_attempts PRIMARY KEY (id),
        CONSTRAINT uq_webhook_attempts_delivery_number UNIQUE (delivery_id, attempt_number),
        CONSTRAINT fk_webhook_attempts_delivery FOREIGN KEY (delivery_id) REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
        CONSTRAINT ck_webhook_attempts_trigger CHECK (trigger IN ('scheduled', 'manual')),
        CONSTRAINT ck_webhook_attempts_outcome CHECK (outcome IN ('success', 'http_error', 'timeout', 'network_error', 'refused'))
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_attempts`);
    await db.query(`DROP TABLE webhook_deliveries`);
    await db.query(`DROP TABLE webhook_endpoints`);
  }
}
