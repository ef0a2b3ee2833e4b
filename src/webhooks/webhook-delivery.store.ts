import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { CoalescingWriter } from '../database/coalescing-writer.js';
import { EntityInsert } from '../database/entity-insert.js';
import type { AttemptTrigger } from './webhook-attempt.entity.js';
import {
  attemptsOfSql,
  claimDueSql,
  lockForRedeliverySql,
  purgePayloadsSql,
  queueStateSql,
  recordSql,
  scheduleRedeliverySql,
} from './webhook-delivery.statements.js';
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
