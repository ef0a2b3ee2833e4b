import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { CoalescingWriter } from '../database/coalescing-writer.js';
import { EntityInsert } from '../database/entity-insert.js';
import { statement } from '../database/statement.js';
import type { AttemptTrigger } from './webhook-attempt.entity.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import type { EndpointDisabledReason } from './webhook-endpoint.entity.js';
import type { AttemptOutcome, AttemptResult } from './webhook-sender.js';

/** docs/webhooks.md: an endpoint that has failed every attempt for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 86_400_000;
// Attempts recorded by one statement at most (16 parameters each, as arrays).
const MAX_RECORDS_PER_STATEMENT = 200;

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

/** A replica's share per endpoint (docs/webhooks.md, fairness): at most `cap` attempts in flight to each. */
export interface EndpointShare {
  cap: number;
  /** Attempts this replica has in flight, by endpoint id. */
  inFlight: ReadonlyMap<string, number>;
}

/** What recording an attempt did, for logs and metrics. */
export interface RecordedAttempt {
  status: 'delivered' | 'retrying' | 'failed' | 'lease_lost';
  nextAttemptAt: Date | null;
  endpointDisabled: EndpointDisabledReason | null;
}

/** A delivery's row for the redelivery checks, locked by the caller's transaction. */
export interface RedeliveryCandidate {
  hasPayload: boolean;
  endpointDisabledAt: Date | null;
}

/** An attempt as the delivery log shows it. */
export interface AttemptLogRow {
  deliveryId: string;
  number: number;
  attemptedAt: Date;
  trigger: AttemptTrigger;
  outcome: AttemptOutcome;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

/** The queue metrics read: pending messages of enabled endpoints. */
export interface QueueState {
  due: number;
  scheduled: number;
  oldestDue: Date | null;
}

const lockForRedeliverySql = statement<[id: string, teamId: string], { has_payload: boolean; disabled_at: Date | null }>(
  `SELECT d.payload_enc IS NOT NULL AS has_payload, e.disabled_at
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE d.id = $1 AND d.team_id = $2
    FOR UPDATE OF d`,
);
const scheduleRedeliverySql = statement<[id: string, now: Date]>(
  `UPDATE webhook_deliveries
      SET status = 'pending', next_attempt_at = $2, finished_at = NULL,
          manual_attempt = (status <> 'pending')
    WHERE id = $1`,
);
const attemptsOfSql = statement<
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
const purgePayloadsSql = statement<[now: Date, cutoff: Date], { purged: number }>(
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
const queueStateSql = statement<[now: Date], { due: number; scheduled: number; oldest_due: Date | null }>(
  `SELECT count(*) FILTER (WHERE d.next_attempt_at <= $1)::int AS due,
          count(*) FILTER (WHERE d.next_attempt_at > $1)::int AS scheduled,
          min(d.next_attempt_at) FILTER (WHERE d.next_attempt_at <= $1) AS oldest_due
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE d.status = 'pending' AND e.disabled_at IS NULL`,
);
const claimDueSql = statement<
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
const recordSql = statement<
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
    statuses: PendingRecord['status'][],
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

/**
 * The queue in SQL (webhook_deliveries and their webhook_attempts): writing messages, claiming due
 * ones under a lease, recording what each attempt did, redelivery, the payload purge and the metrics.
 */
@Injectable()
export class WebhookDeliveryStore {
  // Attempts that finish together are recorded by one statement (CoalescingWriter).
  private readonly records = new CoalescingWriter((batch: PendingRecord[]) => this.recordBatch(batch), MAX_RECORDS_PER_STATEMENT);
  private readonly messages: EntityInsert<WebhookDelivery>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.messages = new EntityInsert(dataSource, WebhookDelivery);
  }

  /** Inside the caller's transaction (the outbox): as few statements as the parameter limit allows. */
  insertMessages(manager: EntityManager, messages: WebhookDelivery[]): Promise<void> {
    return this.messages.insert(manager, messages);
  }

  /** One message on its own (a test event): no transaction of the caller's to join. */
  insertMessage(message: WebhookDelivery): Promise<void> {
    return this.messages.insert(this.dataSource.manager, [message]);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** A delivery of the team, locked until the transaction ends; null when there is none. */
  async lockForRedelivery(manager: EntityManager, id: string, teamId: string): Promise<RedeliveryCandidate | null> {
    const {
      rows: [delivery],
    } = await lockForRedeliverySql.run(manager, id, teamId);
    return delivery ? { hasPayload: delivery.hasPayload, endpointDisabledAt: delivery.disabledAt } : null;
  }

  /** Due now again; a finished message gets one manual attempt and no retries. */
  async scheduleRedelivery(manager: EntityManager, id: string, now: Date): Promise<void> {
    await scheduleRedeliverySql.run(manager, id, now);
  }

  /** The attempts of these deliveries, oldest first, with their columns named as the log shows them. */
  async attemptsOf(deliveryIds: string[]): Promise<AttemptLogRow[]> {
    return (await attemptsOfSql.run(this.dataSource, deliveryIds)).rows;
  }

  /**
   * Erases the payloads, and the receivers' answers, of messages that finished at or before `cutoff`;
   * pending messages of endpoints disabled at or before `cutoff` end as failed and are erased too
   * (docs/webhooks.md, retention). The log rows stay.
   */
  async purgePayloads(now: Date, cutoff: Date): Promise<number> {
    return (await purgePayloadsSql.run(this.dataSource, now, cutoff)).rows[0].purged;
  }

  async queueState(now: Date): Promise<QueueState> {
    const {
      rows: [row],
    } = await queueStateSql.run(this.dataSource, now);
    return { due: row.due, scheduled: row.scheduled, oldestDue: row.oldestDue ? new Date(row.oldestDue) : null };
  }

  /**
   * Takes up to `limit` due messages of enabled endpoints. SKIP LOCKED hands each row to one
   * claimer; the lease keeps it from every other until the attempt is recorded or, if this process
   * dies, until the lease expires and any replica may take it.
   *
   * Fairness (docs/webhooks.md): each endpoint gets no more than its room under `share.cap`, and
   * the claim goes round the endpoints with due messages (every endpoint's oldest first, then every
   * endpoint's second…), so one endpoint's backlog never fills the replica's slots.
   */
  async claimDue(
    limit: number,
    now: Date,
    leaseMs: number,
    share: EndpointShare = { cap: limit, inFlight: new Map() },
  ): Promise<ClaimedDelivery[]> {
    const leaseToken = randomUUID();
    const { rows } = await claimDueSql.run(
      this.dataSource,
      now,
      limit,
      leaseToken,
      new Date(now.getTime() + leaseMs),
      [...share.inFlight.keys()],
      [...share.inFlight.values()],
      share.cap,
    );
    return rows.map(({ manualAttempt, ...row }) => ({ ...row, trigger: manualAttempt ? 'manual' : 'scheduled', leaseToken }));
  }

  /**
   * Logs the attempt and moves the message on: delivered, due again after `retryDelayMs`, or failed
   * when that is null. Only the lease holder moves the message; a worker whose lease ran out still
   * logs what it did. The endpoint's failure streak follows: a success ends it, a failure starts or
   * extends it and may disable the endpoint (Standard Webhooks: 410 Gone at once, else after five
   * days). Attempts that finish while a record is on its way are recorded together by the next one
   * statement: a burst of deliveries costs a few commits, not one each (docs/performance.md).
   */
  record(claim: ClaimedDelivery, result: AttemptResult, now: Date, retryDelayMs: number | null): Promise<RecordedAttempt> {
    const success = result.outcome === 'success';
    const nextAttemptAt = !success && retryDelayMs !== null ? new Date(now.getTime() + retryDelayMs) : null;
    const status = success ? 'delivered' : nextAttemptAt ? 'pending' : 'failed';
    return this.records.submit({ claim, result, now, success, nextAttemptAt, status });
  }

  private async recordBatch(batch: PendingRecord[]): Promise<RecordedAttempt[]> {
    const column = <T>(pick: (attempt: PendingRecord) => T) => batch.map(pick);
    const {
      rows: [row],
    } = await recordSql.run(
      this.dataSource,
      column(() => randomUUID()),
      column((a) => a.claim.id),
      column((a) => a.claim.attemptCount),
      column((a) => a.now),
      column((a) => a.claim.trigger),
      column((a) => a.result.outcome),
      column((a) => a.result.statusCode),
      column((a) => a.result.latencyMs),
      column((a) => a.result.error),
      column((a) => a.result.responseExcerpt),
      column((a) => a.status),
      column((a) => a.nextAttemptAt),
      column((a) => a.claim.leaseToken),
      column((a) => a.success),
      column((a) => a.result.statusCode === 410),
      column((a) => a.claim.endpointId),
      `${DISABLE_AFTER_FAILING_MS} milliseconds`,
    );
    const moved = new Set(row.moved ?? []);
    // A disable is reported once, with the first attempt of that endpoint in the batch.
    const disabled = new Map((row.disabled ?? []).map((d) => [d.id, d.reason]));
    return batch.map((attempt) => {
      const endpointDisabled = disabled.get(attempt.claim.endpointId) ?? null;
      disabled.delete(attempt.claim.endpointId);
      return {
        status: !moved.has(attempt.claim.id) ? 'lease_lost' : attempt.status === 'pending' ? 'retrying' : attempt.status,
        nextAttemptAt: attempt.nextAttemptAt,
        endpointDisabled,
      };
    });
  }
}

/** An attempt to record, with what recording it decides (WebhookDeliveryStore.record). */
interface PendingRecord {
  claim: ClaimedDelivery;
  result: AttemptResult;
  now: Date;
  success: boolean;
  nextAttemptAt: Date | null;
  status: 'delivered' | 'pending' | 'failed';
}
