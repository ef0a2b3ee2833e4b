import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import { DataCipher } from '../common/crypto/data-cipher.js';
import { randomBase62 } from '../common/crypto/random-token.js';
import { TeamsService } from '../teams/teams.service.js';
import type { WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhookDeliveryStore } from './webhook-delivery.store.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { payloadAad } from './webhook-encryption.js';
import { WebhookEndpointStore } from './webhook-endpoint.store.js';
import { WEBHOOK_TEST_EVENT, type WebhookEventType, type WebhookMessageType } from './webhook-event-types.js';

/** An event for the endpoints that want its type (docs/webhooks.md, "Events"): a session ended, or its pending hintCode changed. */
export interface OutboxEvent {
  teamId: string;
  environment: ApiKeyEnvironment;
  sessionId: string;
  type: WebhookEventType;
  occurredAt: Date;
  /** The `data` member of the body (docs/webhooks.md). */
  data: Record<string, unknown>;
}

/** Standard Webhooks ids: opaque, and never containing the `.` that separates the signed parts. */
const newMessageId = () => `msg_${randomBase62(27)}`;

/**
 * The transactional outbox: the messages of an event are written by the same transaction that
 * records the event, so they exist exactly when it does, whatever crashes afterwards.
 */
@Injectable()
export class WebhookOutbox {
  constructor(
    private readonly cipher: DataCipher,
    private readonly dispatcher: WebhookDispatcher,
    private readonly endpoints: WebhookEndpointStore,
    private readonly deliveries: WebhookDeliveryStore,
    private readonly teams: TeamsService,
  ) {}

  /**
   * Inside the caller's transaction: one message per enabled endpoint that wants each event, written
   * in two statements however many events there are (a collector batch ends many sessions at once).
   */
  async enqueue(manager: EntityManager, events: OutboxEvent[], now: Date): Promise<number> {
    if (events.length === 0) return 0;
    const endpoints = await this.endpoints.enabledOfTeams(manager, [...new Set(events.map((event) => event.teamId))]);
    if (endpoints.length === 0) return 0;
    // A team that left the pro plan keeps its endpoints but gets no webhooks (docs/webhooks.md).
    const proTeams = await this.teams.withFeature([...new Set(endpoints.map((e) => e.teamId))], 'pro', manager);
    const eligible = endpoints.filter((e) => proTeams.has(e.teamId));
    const rows = events.flatMap((event) => {
      const targets = eligible.filter(
        (e) => e.teamId === event.teamId && e.environment === event.environment && e.eventTypes.includes(event.type),
      );
      if (targets.length === 0) return [];
      // Serialised once: these bytes are stored, signed and sent as they are.
      const body = JSON.stringify({ type: event.type, timestamp: event.occurredAt.toISOString(), data: event.data });
      return targets.map((endpoint) => this.message(event, endpoint.id, body, now));
    });
    await this.deliveries.insertMessages(manager, rows);
    return rows.length;
  }

  /**
   * A `webhook.test` message for one endpoint (docs/webhooks.md): no session behind it, sent and
   * retried, signed and logged like any other.
   */
  async enqueueTest(
    endpoint: { id: string; teamId: string; environment: ApiKeyEnvironment },
    now: Date,
  ): Promise<{ id: string; messageId: string }> {
    const body = JSON.stringify({
      type: WEBHOOK_TEST_EVENT,
      timestamp: now.toISOString(),
      data: { endpointId: endpoint.id, environment: endpoint.environment },
    });
    const message = this.message(
      { teamId: endpoint.teamId, sessionId: null, type: WEBHOOK_TEST_EVENT, occurredAt: now },
      endpoint.id,
      body,
      now,
    );
    await this.deliveries.insertMessage(message);
    return { id: message.id, messageId: message.messageId };
  }

  private message(
    event: { teamId: string; sessionId: string | null; type: WebhookMessageType; occurredAt: Date },
    endpointId: string,
    body: string,
    now: Date,
  ): WebhookDelivery {
    const id = randomUUID();
    return {
      id,
      messageId: newMessageId(),
      teamId: event.teamId,
      endpointId,
      sessionId: event.sessionId,
      eventType: event.type,
      eventAt: event.occurredAt,
      payloadEnc: this.cipher.encrypt(body, payloadAad(id)),
      status: 'pending',
      attemptCount: 0,
      nextAttemptAt: now,
      manualAttempt: false,
      leaseToken: null,
      leaseExpiresAt: null,
      lastAttemptAt: null,
      lastStatusCode: null,
      lastError: null,
      deliveredAt: null,
      finishedAt: null,
      payloadPurgedAt: null,
      createdAt: now,
    };
  }

  /** After the transaction committed: send now rather than at the next poll. */
  dispatchSoon(): void {
    this.dispatcher.wake();
  }
}
