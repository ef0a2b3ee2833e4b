import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { statement, type RowOf } from '../database/statement.js';

// Of the RP's metadata only the OpenID client id (set by the OpenID front); the rest may be personal.
const sessionSql = statement<
  [id: string, teamId: string],
  {
    id: string;
    provider: string;
    environment: string;
    operation: string;
    channel: string;
    status: string;
    hint_code: string | null;
    created_at: Date;
    expires_at: Date;
    completed_at: Date | null;
    pii_purged_at: Date | null;
    renewals: number;
    evidence_enc: Buffer | null;
    oidc_client_id: string | null;
  }
>(
  `SELECT id, provider, environment, operation, channel, status, hint_code, created_at, expires_at, completed_at, pii_purged_at,
          renewals, evidence_enc, metadata ->> 'oidcClientId' AS oidc_client_id
     FROM sessions WHERE id = $1 AND team_id = $2`,
);
const eventsSql = statement<[sessionId: string], { occurred_at: Date; status: string; hint_code: string | null }>(
  `SELECT occurred_at, status, hint_code FROM session_events WHERE session_id = $1 ORDER BY id`,
);
const deliveriesSql = statement<
  [sessionId: string, teamId: string],
  { id: string; message_id: string; event_type: string; status: string; created_at: Date; delivered_at: Date | null; url: string }
>(
  `SELECT d.id, d.message_id, d.event_type, d.status, d.created_at, d.delivered_at, e.url
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE d.session_id = $1 AND d.team_id = $2
    ORDER BY d.created_at, d.id`,
);
const attemptsSql = statement<
  [deliveryIds: string[]],
  {
    delivery_id: string;
    attempt_number: number;
    attempted_at: Date;
    trigger: string;
    outcome: string;
    status_code: number | null;
    latency_ms: number;
    error: string | null;
  }
>(
  `SELECT delivery_id, attempt_number, attempted_at, trigger, outcome, status_code, latency_ms, error
     FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[]) ORDER BY delivery_id, attempt_number`,
);

export type TimelineSessionRow = RowOf<typeof sessionSql>;

/** The reads of a session's timeline, each scoped to the caller's team (docs/console.md). */
@Injectable()
export class SessionTimelineStore {
  constructor(private readonly db: DataSource) {}

  async session(teamId: string, id: string): Promise<TimelineSessionRow | null> {
    return (await sessionSql.run(this.db, id, teamId)).rows[0] ?? null;
  }

  async events(sessionId: string): Promise<RowOf<typeof eventsSql>[]> {
    return (await eventsSql.run(this.db, sessionId)).rows;
  }

  async deliveries(teamId: string, sessionId: string): Promise<RowOf<typeof deliveriesSql>[]> {
    return (await deliveriesSql.run(this.db, sessionId, teamId)).rows;
  }

  async attempts(deliveryIds: string[]): Promise<RowOf<typeof attemptsSql>[]> {
    if (deliveryIds.length === 0) return [];
    return (await attemptsSql.run(this.db, deliveryIds)).rows;
  }
}
