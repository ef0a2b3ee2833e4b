import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { EndpointDisabledReason } from './webhook-endpoint.entity.js';
import type { AttemptTrigger } from './webhook-attempt.entity.js';
import type { AttemptResult } from './webhook-sender.js';

/** SPEC 4: an endpoint that has failed every attempt for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 86_400_000;

/** A due message taken by one dispatcher, with what it needs to sign and send it. */
export interface ClaimedDelivery {
  id: string;
  messageId: string;
  teamId: string;
  endpointId: string;
  eventAt: Date;
  /** Including this one. */
  attemptCount: number;
  trigger: AttemptTrigger;
  leaseToken: string;
  payloadEnc: Buffer;
  url: string;
  secretEnc: Buffer;
  previousSecretEnc: Buffer | null;
  previousSecretExpiresAt: Date | null;
}

/** What recording an attempt did, for logs and metrics. */
export interface RecordedAttempt {
  status: 'delivered' | 'retrying' | 'failed' | 'lease_lost';
  nextAttemptAt: Date | null;
  endpointDisabled: EndpointDisabledReason | null;
}

/** The queue in SQL: claiming due messages under a lease, and recording what each attempt did. */
@Injectable()
export class WebhookDeliveryStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Takes up to `limit` due messages of enabled endpoints. SKIP LOCKED hands each row to one
   * claimer; the lease keeps it from every other until the attempt is recorded or, if this process
   * dies, until the lease expires and any replica may take it.
   */
  async claimDue(limit: number, now: Date, leaseMs: number): Promise<ClaimedDelivery[]> {
    const leaseToken = randomUUID();
    const [rows]: [ClaimRow[]] = await this.dataSource.query(
      `WITH due AS (
         SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE d.status = 'pending' AND d.next_attempt_at <= $1
            AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= $1)
            AND e.disabled_at IS NULL
          ORDER BY d.next_attempt_at
          LIMIT $2
          FOR UPDATE OF d SKIP LOCKED)
       UPDATE webhook_deliveries d
          SET lease_token = $3, lease_expires_at = $4, attempt_count = d.attempt_count + 1
         FROM due, webhook_endpoints e
        WHERE d.id = due.id AND e.id = d.endpoint_id
       RETURNING d.id, d.message_id, d.team_id, d.endpoint_id, d.event_at, d.attempt_count, d.manual_attempt, d.payload_enc,
                 e.url, e.secret_enc, e.previous_secret_enc, e.previous_secret_expires_at`,
      [now, limit, leaseToken, new Date(now.getTime() + leaseMs)],
    );
    return rows.map((row) => ({
      id: row.id,
      messageId: row.message_id,
      teamId: row.team_id,
      endpointId: row.endpoint_id,
      eventAt: row.event_at,
      attemptCount: row.attempt_count,
      trigger: row.manual_attempt ? 'manual' : 'scheduled',
      leaseToken,
      payloadEnc: row.payload_enc,
      url: row.url,
      secretEnc: row.secret_enc,
      previousSecretEnc: row.previous_secret_enc,
      previousSecretExpiresAt: row.previous_secret_expires_at,
    }));
  }

  /**
   * Logs the attempt and moves the message on: delivered, due again after `retryDelayMs`, or failed
   * when that is null. Only the lease holder moves the message; a worker whose lease ran out still
   * logs what it did. The endpoint's failure streak follows: a success ends it, a failure starts or
   * extends it and may disable the endpoint (Standard Webhooks: 410 Gone at once, else after five
   * days). One statement, so one round trip and one atomic change, however busy the dispatcher is.
   */
  async record(claim: ClaimedDelivery, result: AttemptResult, now: Date, retryDelayMs: number | null): Promise<RecordedAttempt> {
    const success = result.outcome === 'success';
    const nextAttemptAt = !success && retryDelayMs !== null ? new Date(now.getTime() + retryDelayMs) : null;
    const status = success ? 'delivered' : nextAttemptAt ? 'pending' : 'failed';
    const reason: EndpointDisabledReason = result.statusCode === 410 ? 'gone' : 'failing';
    const [row]: { moved: boolean; disabled_reason: EndpointDisabledReason | null }[] = await this.dataSource.query(
      `WITH attempt AS (
         INSERT INTO webhook_attempts (id, delivery_id, attempt_number, attempted_at, trigger, outcome, status_code, latency_ms, error, response_excerpt)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)),
       moved AS (
         UPDATE webhook_deliveries
            SET status = $11, next_attempt_at = $12, finished_at = CASE WHEN $11 = 'pending' THEN NULL ELSE $4::timestamptz END,
                delivered_at = CASE WHEN $11 = 'delivered' THEN $4::timestamptz ELSE delivered_at END,
                last_attempt_at = $4, last_status_code = $7, last_error = $9,
                lease_token = NULL, lease_expires_at = NULL, manual_attempt = false
          WHERE id = $2 AND lease_token = $13
         RETURNING id),
       health AS (
         UPDATE webhook_endpoints
            SET failing_since = CASE WHEN $14 THEN NULL ELSE coalesce(failing_since, $4) END,
                disabled_at = CASE WHEN NOT $14 AND ($15 = 'gone' OR coalesce(failing_since, $4) <= $16) THEN $4 ELSE disabled_at END,
                disabled_reason = CASE WHEN NOT $14 AND ($15 = 'gone' OR coalesce(failing_since, $4) <= $16) THEN $15 ELSE disabled_reason END
          WHERE id = $17 AND CASE WHEN $14 THEN failing_since IS NOT NULL ELSE disabled_at IS NULL END
         RETURNING disabled_reason)
       SELECT EXISTS (SELECT 1 FROM moved) AS moved, (SELECT disabled_reason FROM health) AS disabled_reason`,
      [
        randomUUID(),
        claim.id,
        claim.attemptCount,
        now,
        claim.trigger,
        result.outcome,
        result.statusCode,
        result.latencyMs,
        result.error,
        result.responseExcerpt,
        status,
        nextAttemptAt,
        claim.leaseToken,
        success,
        reason,
        new Date(now.getTime() - DISABLE_AFTER_FAILING_MS),
        claim.endpointId,
      ],
    );
    return {
      status: !row.moved ? 'lease_lost' : status === 'pending' ? 'retrying' : status,
      nextAttemptAt,
      endpointDisabled: row.disabled_reason,
    };
  }
}

interface ClaimRow {
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
