import { defineListing } from '../listings/listing-definition.js';

/** The delivery log (docs/listings.md): every column can be filtered and sorted; payloads and secrets are not columns. */
export const WEBHOOK_DELIVERY_LISTING = defineListing({
  from: 'webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id',
  columns: {
    id: { sql: 'd.id::text', type: 'text' },
    messageId: { sql: 'd.message_id', type: 'text' },
    endpointId: { sql: 'd.endpoint_id::text', type: 'text' },
    url: { sql: 'e.url', type: 'text' },
    environment: { sql: 'e.environment', type: 'text' },
    sessionId: { sql: 'd.session_id::text', type: 'text' },
    eventType: { sql: 'd.event_type', type: 'text' },
    status: { sql: 'd.status', type: 'text' },
    attemptCount: { sql: 'd.attempt_count', type: 'number' },
    lastStatusCode: { sql: 'd.last_status_code', type: 'number' },
    lastError: { sql: 'd.last_error', type: 'text' },
    eventAt: { sql: 'd.event_at', type: 'date' },
    createdAt: { sql: 'd.created_at', type: 'date' },
    lastAttemptAt: { sql: 'd.last_attempt_at', type: 'date' },
    nextAttemptAt: { sql: 'd.next_attempt_at', type: 'date' },
    deliveredAt: { sql: 'd.delivered_at', type: 'date' },
    payloadPurgedAt: { sql: 'd.payload_purged_at', type: 'date' },
  },
  tiebreaker: 'd.id',
  defaultSort: [{ colId: 'createdAt', sort: 'desc' }],
});
