import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { isUuid } from '../common/validation/is-uuid.js';
import type { ListingRequestDto } from '../listings/listing-request.dto.js';
import { ListingStore, type ListingRow } from '../listings/listing.store.js';
import type { AttemptTrigger } from './webhook-attempt.entity.js';
import type { DeliveryStatus } from './webhook-delivery.entity.js';
import { WEBHOOK_DELIVERY_LISTING } from './webhook-delivery-listing.js';
import { WebhookDeliveryStore } from './webhook-delivery.store.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import type { WebhookMessageType } from './webhook-event-types.js';
import type { AttemptOutcome } from './webhook-sender.js';

/** A row of the log: WEBHOOK_DELIVERY_LISTING's columns (absent values left out, times ISO 8601) and the attempts. */
export interface DeliveryView {
  id: string;
  messageId: string;
  endpointId: string;
  url: string;
  environment: string;
  /** Absent for a test event. */
  sessionId?: string;
  eventType: WebhookMessageType;
  status: DeliveryStatus;
  attemptCount: number;
  lastStatusCode?: number;
  lastError?: string;
  eventAt: string;
  createdAt: string;
  lastAttemptAt?: string;
  nextAttemptAt?: string;
  deliveredAt?: string;
  payloadPurgedAt?: string;
  attempts: AttemptView[];
}

export interface AttemptView {
  number: number;
  attemptedAt: string;
  trigger: AttemptTrigger;
  outcome: AttemptOutcome;
  statusCode?: number;
  latencyMs: number;
  error?: string;
  responseExcerpt?: string;
}

/** The delivery log of a team, and redelivery. */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    private readonly store: WebhookDeliveryStore,
    private readonly listings: ListingStore,
    private readonly dispatcher: WebhookDispatcher,
    private readonly clock: Clock,
  ) {}

  /** A page of the log (docs/listings.md), each row with its attempts. */
  async list(teamId: string, request: ListingRequestDto): Promise<{ success: true; rows: DeliveryView[]; lastrow: number }> {
    const page = await this.listings.page(WEBHOOK_DELIVERY_LISTING, request, (p) => `d.team_id = ${p.add(teamId)}`);
    return { ...page, rows: await this.withAttempts(page.rows) };
  }

  /**
   * Sends a message again, with its own webhook-id (receivers deduplicate on it). A finished one
   * gets one attempt and no retries; a pending one is brought forward to now.
   */
  async redeliver(teamId: string, id: string): Promise<DeliveryView> {
    await this.store.transaction(async (manager) => {
      const delivery = isUuid(id) ? await this.store.lockForRedelivery(manager, id, teamId) : null;
      if (!delivery) throw new DomainException('not_found', `No webhook delivery ${id}.`);
      if (!delivery.hasPayload) {
        throw new DomainException(
          'delivery_not_redeliverable',
          'The payload was erased after the retention period (it held personal data).',
        );
      }
      if (delivery.endpointDisabledAt)
        throw new DomainException('delivery_not_redeliverable', 'The endpoint is disabled; enable it first.');
      await this.store.scheduleRedelivery(manager, id, this.clock.now());
    });
    this.dispatcher.wake();
    const { rows } = await this.list(teamId, {
      startRow: 0,
      endRow: 1,
      filterModel: { id: { filterType: 'text', type: 'equals', filter: id } },
    });
    return rows[0];
  }

  private async withAttempts(rows: ListingRow[]): Promise<DeliveryView[]> {
    if (rows.length === 0) return [];
    const attempts = await this.store.attemptsOf(rows.map((row) => String(row.id)));
    const byDelivery = new Map<string, AttemptView[]>();
    for (const { deliveryId, ...attempt } of attempts)
      byDelivery.set(deliveryId, [...(byDelivery.get(deliveryId) ?? []), withoutNulls(attempt) as unknown as AttemptView]);
    // The row's members are the listing definition's columns: DeliveryView spells them out.
    return rows.map((row) => ({ ...(row as unknown as Omit<DeliveryView, 'attempts'>), attempts: byDelivery.get(String(row.id)) ?? [] }));
  }
}

/** As the listing writes its rows: times in ISO 8601 UTC, absent values left out. */
function withoutNulls(record: object): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value !== null && value !== undefined) view[key] = value instanceof Date ? value.toISOString() : value;
  }
  return view;
}
