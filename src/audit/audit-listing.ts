import { defineListing } from '../listings/listing-definition.js';

/** The audit log as a tabular listing (docs/listings.md, docs/audit.md). */
export const AUDIT_LISTING = defineListing({
  from: 'audit_events a',
  columns: {
    id: { sql: 'a.id::text', type: 'text' },
    occurredAt: { sql: 'a.occurred_at', type: 'date' },
    environment: { sql: 'a.environment', type: 'text' },
    actorType: { sql: 'a.actor_type', type: 'text' },
    actorId: { sql: 'a.actor_id::text', type: 'text' },
    actor: { sql: 'a.actor_label', type: 'text' },
    action: { sql: 'a.action', type: 'text' },
    targetType: { sql: 'a.target_type', type: 'text' },
    targetId: { sql: 'a.target_id', type: 'text' },
    clientAddress: { sql: 'a.client_address', type: 'text' },
    // JSON text, parsed back into an object for the answer (AuditEventsController).
    details: { sql: 'a.details::text', type: 'text' },
  },
  tiebreaker: 'a.id',
  defaultSort: [{ colId: 'occurredAt', sort: 'desc' }],
});
