import { Injectable, Logger } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { Clock } from '../common/clock/clock.js';
import { WebhookDeliveryStore } from './webhook-delivery.store.js';
import type { EndpointDisabledReason } from './webhook-endpoint.entity.js';
import type { AttemptOutcome } from './webhook-sender.js';

/** The relay's health in Prometheus terms: what happens to attempts, how late messages are, how much waits. */
@Injectable()
export class WebhookMetrics {
  private readonly logger = new Logger(WebhookMetrics.name);
  private readonly attempts: Counter<'outcome'>;
  private readonly attemptDuration: Histogram<'outcome'>;
  private readonly deliveryLatency: Histogram;
  private readonly disabled: Counter<'reason'>;

  constructor(registry: Registry, deliveries: WebhookDeliveryStore, clock: Clock) {
    this.attempts = new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook HTTP attempts by outcome (success, http_error, timeout, network_error, refused).',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.attemptDuration = new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Duration of one webhook HTTP attempt, connect to the last byte read.',
      labelNames: ['outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers: [registry],
    });
    this.deliveryLatency = new Histogram({
      name: 'webhook_delivery_latency_seconds',
      help: 'From the session ending to the successful delivery of its webhook (scheduled attempts, retries included).',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 36000, 100000],
      registers: [registry],
    });
    this.disabled = new Counter({
      name: 'webhook_endpoints_disabled_total',
      help: 'Endpoints disabled by the relay: failing for 5 days, or answering 410 Gone.',
      labelNames: ['reason'],
      registers: [registry],
    });
    const logger = this.logger;
    // Read from the database at scrape time: the queue is shared by every replica.
    let queue: Promise<{ due: number; scheduled: number; oldestDueAgeSeconds: number }> | null = null;
    const readQueue = () =>
      (queue ??= readQueueState(deliveries, clock.now())
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'Could not read the webhook queue for metrics');
          return { due: Number.NaN, scheduled: Number.NaN, oldestDueAgeSeconds: Number.NaN };
        })
        // Both gauges share one query per scrape.
        .finally(() => setImmediate(() => (queue = null))));
    new Gauge({
      name: 'webhook_queue_depth',
      help: 'Pending webhook messages of enabled endpoints: due now (or being sent) and scheduled for a retry.',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        const state = await readQueue();
        this.set({ state: 'due' }, state.due);
        this.set({ state: 'scheduled' }, state.scheduled);
      },
    });
    new Gauge({
      name: 'webhook_oldest_due_age_seconds',
      help: 'How long the oldest due webhook message has been waiting (0 when none is due).',
      registers: [registry],
      async collect() {
        this.set((await readQueue()).oldestDueAgeSeconds);
      },
    });
  }

  attempted(outcome: AttemptOutcome, latencyMs: number): void {
    this.attempts.inc({ outcome });
    this.attemptDuration.observe({ outcome }, latencyMs / 1000);
  }

  delivered(eventAt: Date, now: Date): void {
    this.deliveryLatency.observe(Math.max(0, now.getTime() - eventAt.getTime()) / 1000);
  }

  endpointDisabled(reason: EndpointDisabledReason): void {
    this.disabled.inc({ reason });
  }
}

async function readQueueState(deliveries: WebhookDeliveryStore, now: Date) {
  const { due, scheduled, oldestDue } = await deliveries.queueState(now);
  return { due, scheduled, oldestDueAgeSeconds: oldestDue ? Math.max(0, now.getTime() - oldestDue.getTime()) / 1000 : 0 };
}
