import { statement } from '../database/statement.js';
import type { AttemptTrigger } from './webhook-attempt.entity.js';
import type { EndpointDisabledReason } from './webhook-endpoint.entity.js';
import type { AttemptOutcome } from './webhook-sender.js';

// The statements of WebhookDeliveryStore (webhook-delivery.store.ts), which documents what each does.

export const lockForRedeliverySql = statement<[id: string, teamId: string], { has_payload: boolean; disabled_at: Date | null }>(
  `SELECT d.payload_enc IS NOT NULL AS has_payload, e.disabled_at
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE d.id = $1 AND d.team_id = $2
    FOR UPDATE OF d`,
);
export const scheduleRedeliverySql = statement<[id: string, now: Date]>(
  `UPDATE webhook_deliveries
      SET status = 'pending', next_attempt_at = $2, finished_at = NULL,
          manual_attempt = (status <> 'pending')
    WHERE id = $1`,
);
export const attemptsOfSql = statement<
  [deliveryIds: string[]],
  {
    delivery_id: string;
    number: number;
    attempted_at: Date;
    trigger: AttemptTrigger;
    outcome: AttemptOutcome;
    status_code: number | null;
    latency_ms: number;
    error: string | null;
    response_excerpt: string | null;
  }
>(
  `SELECT delivery_id, attempt_number AS number, attempted_at, trigger, outcome, status_code, latency_ms, error, response_excerpt
     FROM webhook_attempts WHERE delivery_id = ANY ($1::uuid[]) ORDER BY delivery_id, attempt_number`,
);
export const purgePayloadsSql = statement<[now: Date, cutoff: Date], { purged: number }>(
  `WITH stranded AS (
     UPDATE webhook_deliveries d
        SET status = 'failed', next_attempt_at = NULL, finished_at = $1, payload_enc = NULL, payload_purged_at = $1,
            lease_token = NULL, lease_expires_at = NULL, last_error = 'Endpoint disabled'
       FROM webhook_endpoints e
      WHERE e.id = d.endpoint_id AND d.status = 'pending' AND e.disabled_at <= $2
        AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= $1)
     RETURNING d.id),
   ended AS (
     UPDATE webhook_deliveries SET payload_enc = NULL, payload_purged_at = $1
      WHERE payload_enc IS NOT NULL AND status <> 'pending' AND finished_at <= $2
     RETURNING id),
   answers AS (
     UPDATE webhook_attempts SET response_excerpt = NULL
      WHERE response_excerpt IS NOT NULL AND delivery_id IN (SELECT id FROM stranded UNION ALL SELECT id FROM ended))
   SELECT (SELECT count(*) FROM stranded)::int + (SELECT count(*) FROM ended)::int AS purged`,
);
export const queueStateSql = statement<[now: Date], { due: number; scheduled: number; oldest_due: Date | null }>(
  `SELECT count(*) FILTER (WHERE d.next_attempt_at <= $1)::int AS due,
          count(*) FILTER (WHERE d.next_attempt_at > $1)::int AS scheduled,
          min(d.next_attempt_at) FILTER (WHERE d.next_attempt_at <= $1) AS oldest_due
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE d.status = 'pending' AND e.disabled_at IS NULL`,
);
export const claimDueSql = statement<
  [now: Date, limit: number, leaseToken: string, leaseExpiresAt: Date, busyEndpoints: string[], inFlight: number[], cap: number],
  {
    id: string;
    message_id: string;
    team_id: string;
    endpoint_id: string;
    event_at: Date;
    attempt_count: number;
    manual_attempt: boolean;
    payload_enc: Buffer;
    url: string;
    secret_enc: Buffer;
    previous_secret_enc: Buffer | null;
    previous_secret_expires_at: Date | null;
  }
>(
  `WITH busy AS (
     SELECT * FROM unnest($5::uuid[], $6::int[]) AS b (endpoint_id, in_flight)),
   ready AS (
     SELECT e.id, $7::int - coalesce(b.in_flight, 0) AS room
       FROM webhook_endpoints e LEFT JOIN busy b ON b.endpoint_id = e.id
      WHERE e.disabled_at IS NULL AND $7::int - coalesce(b.in_flight, 0) > 0),
   picked AS (
     SELECT c.id, c.endpoint_id, c.next_attempt_at
       FROM ready r CROSS JOIN LATERAL (
         SELECT d.id, d.endpoint_id, d.next_attempt_at FROM webhook_deliveries d
          WHERE d.endpoint_id = r.id AND d.status = 'pending' AND d.next_attempt_at <= $1
            AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= $1)
          ORDER BY d.next_attempt_at
          LIMIT r.room
          FOR UPDATE SKIP LOCKED) c),
   due AS (
     SELECT id FROM (SELECT id, next_attempt_at, row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at) AS turn FROM picked) p
      ORDER BY turn, next_attempt_at
      LIMIT $2)
   UPDATE webhook_deliveries d
      SET lease_token = $3, lease_expires_at = $4, attempt_count = d.attempt_count + 1
     FROM due, webhook_endpoints e
    WHERE d.id = due.id AND e.id = d.endpoint_id
   RETURNING d.id, d.message_id, d.team_id, d.endpoint_id, d.event_at, d.attempt_count, d.manual_attempt, d.payload_enc,
             e.url, e.secret_enc, e.previous_secret_enc, e.previous_secret_expires_at`,
);
// Arrays of the attempts' columns ($1–$16), then the failing period that disables an endpoint.
export const recordSql = statement<
  [
    attemptIds: string[],
    deliveryIds: string[],
    attemptNumbers: number[],
    attemptedAts: Date[],
    triggers: AttemptTrigger[],
    outcomes: AttemptOutcome[],
    statusCodes: (number | null)[],
    latencies: number[],
    errors: (string | null)[],
    responseExcerpts: (string | null)[],
    statuses: ('delivered' | 'pending' | 'failed')[],
    nextAttemptAts: (Date | null)[],
    leaseTokens: string[],
    successes: boolean[],
    gones: boolean[],
    endpointIds: string[],
    disableAfter: string,
  ],
  { moved: string[] | null; disabled: { id: string; reason: EndpointDisabledReason }[] | null }
>(
  `WITH input AS (
   SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::timestamptz[], $5::text[], $6::text[], $7::int[], $8::int[],
                        $9::text[], $10::text[], $11::text[], $12::timestamptz[], $13::uuid[], $14::boolean[], $15::boolean[], $16::uuid[])
     AS i (attempt_id, delivery_id, attempt_number, attempted_at, trigger, outcome, status_code, latency_ms,
           error, response_excerpt, status, next_attempt_at, lease_token, success, gone, endpoint_id)),
 attempt AS (
   INSERT INTO webhook_attempts (id, delivery_id, attempt_number, attempted_at, trigger, outcome, status_code, latency_ms, error, response_excerpt)
   SELECT attempt_id, delivery_id, attempt_number, attempted_at, trigger, outcome, status_code, latency_ms, error, response_excerpt FROM input),
 moved AS (
   UPDATE webhook_deliveries d
      SET status = i.status, next_attempt_at = i.next_attempt_at,
          finished_at = CASE WHEN i.status = 'pending' THEN NULL ELSE i.attempted_at END,
          delivered_at = CASE WHEN i.status = 'delivered' THEN i.attempted_at ELSE d.delivered_at END,
          last_attempt_at = i.attempted_at, last_status_code = i.status_code, last_error = i.error,
          lease_token = NULL, lease_expires_at = NULL, manual_attempt = false
     FROM input i
    WHERE d.id = i.delivery_id AND d.lease_token = i.lease_token
   RETURNING d.id),
 -- Per endpoint: any success in the batch ends the streak; otherwise its first failure counts.
 outcome AS (
   SELECT endpoint_id, bool_or(success) AS any_success, bool_or(gone) AS gone, min(attempted_at) AS at
     FROM input GROUP BY endpoint_id),
 health AS (
   UPDATE webhook_endpoints e
      SET failing_since = CASE WHEN o.any_success THEN NULL ELSE coalesce(e.failing_since, o.at) END,
          disabled_at = CASE WHEN NOT o.any_success AND (o.gone OR coalesce(e.failing_since, o.at) <= o.at - $17::interval) THEN o.at ELSE e.disabled_at END,
          disabled_reason = CASE WHEN o.any_success THEN e.disabled_reason WHEN o.gone THEN 'gone'
                                 WHEN coalesce(e.failing_since, o.at) <= o.at - $17::interval THEN 'failing' ELSE e.disabled_reason END
     FROM outcome o
    WHERE e.id = o.endpoint_id AND CASE WHEN o.any_success THEN e.failing_since IS NOT NULL ELSE e.disabled_at IS NULL END
   RETURNING e.id, CASE WHEN NOT o.any_success AND e.disabled_at IS NOT NULL THEN e.disabled_reason END AS disabled_reason)
 SELECT (SELECT array_agg(id) FROM moved) AS moved,
        (SELECT json_agg(json_build_object('id', id, 'reason', disabled_reason)) FROM health WHERE disabled_reason IS NOT NULL) AS disabled`,
);
