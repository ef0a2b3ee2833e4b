import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { WebhookMessageType } from './webhook-event-types.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * One event for one endpoint: the outbox row, written in the transaction that ends the session,
 * and the state of its delivery. `messageId` is the `webhook-id` of every attempt.
 */
@Entity('webhook_deliveries')
export class WebhookDelivery {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'message_id' })
  messageId: string;

  @Column('uuid', { name: 'team_id' })
  teamId: string;

  @Column('uuid', { name: 'endpoint_id' })
  endpointId: string;

  /** Null for a test event sent from the console (docs/webhooks.md). */
  @Column('uuid', { name: 'session_id', nullable: true })
  sessionId: string | null;

  @Column('text', { name: 'event_type' })
  eventType: WebhookMessageType;

  @Column('timestamptz', { name: 'event_at' })
  eventAt: Date;

  /** The exact JSON body sent, encrypted (it carries personal data); erased after retention. */
  @Column('bytea', { name: 'payload_enc', nullable: true, select: false })
  payloadEnc: Buffer | null;

  @Column('text')
  status: DeliveryStatus;

  /** Attempts claimed so far (a crashed worker's attempt counts: it may have arrived). */
  @Column('integer', { name: 'attempt_count' })
  attemptCount: number;

  @Column('timestamptz', { name: 'next_attempt_at', nullable: true })
  nextAttemptAt: Date | null;

  /** The next attempt is a redelivery: one try, no retries after it. */
  @Column('boolean', { name: 'manual_attempt' })
  manualAttempt: boolean;

  @Column('uuid', { name: 'lease_token', nullable: true })
  leaseToken: string | null;

  @Column('timestamptz', { name: 'lease_expires_at', nullable: true })
  leaseExpiresAt: Date | null;

  @Column('timestamptz', { name: 'last_attempt_at', nullable: true })
  lastAttemptAt: Date | null;

  @Column('integer', { name: 'last_status_code', nullable: true })
  lastStatusCode: number | null;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;

  @Column('timestamptz', { name: 'delivered_at', nullable: true })
  deliveredAt: Date | null;

  @Column('timestamptz', { name: 'finished_at', nullable: true })
  finishedAt: Date | null;

  @Column('timestamptz', { name: 'payload_purged_at', nullable: true })
  payloadPurgedAt: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
