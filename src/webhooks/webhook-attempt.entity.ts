import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AttemptOutcome } from './webhook-sender.js';

export type AttemptTrigger = 'scheduled' | 'manual';

/** One HTTP attempt of a delivery, for the delivery log. */
@Entity('webhook_attempts')
export class WebhookAttempt {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'delivery_id' })
  deliveryId: string;

  /** 1 for the first attempt; each claim of the delivery numbers the next. */
  @Column('integer', { name: 'attempt_number' })
  attemptNumber: number;

  @Column('timestamptz', { name: 'attempted_at' })
  attemptedAt: Date;

  @Column('text')
  trigger: AttemptTrigger;

  @Column('text')
  outcome: AttemptOutcome;

  @Column('integer', { name: 'status_code', nullable: true })
  statusCode: number | null;

  @Column('integer', { name: 'latency_ms' })
  latencyMs: number;

  @Column('text', { nullable: true })
  error: string | null;

  @Column('text', { name: 'response_excerpt', nullable: true })
  responseExcerpt: string | null;
}
