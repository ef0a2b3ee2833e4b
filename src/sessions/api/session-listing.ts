import { defineListing } from '../../listings/listing-definition.js';

/** The team's sessions for the management API: status and times only, never personal data or metadata. */
export const SESSION_LISTING = defineListing({
  from: 'sessions s',
  columns: {
    sessionId: { sql: 's.id::text', type: 'text' },
    provider: { sql: 's.provider', type: 'text' },
    environment: { sql: 's.environment', type: 'text' },
    operation: { sql: 's.operation', type: 'text' },
    channel: { sql: 's.channel', type: 'text' },
    status: { sql: 's.status', type: 'text' },
    hintCode: { sql: 's.hint_code', type: 'text' },
    apiKeyId: { sql: 's.api_key_id::text', type: 'text' },
    createdAt: { sql: 's.created_at', type: 'date' },
    expiresAt: { sql: 's.expires_at', type: 'date' },
    completedAt: { sql: 's.completed_at', type: 'date' },
    // Milliseconds from start to end; absent while pending.
    durationMs: { sql: `(extract(epoch FROM s.completed_at - s.created_at) * 1000)::int4`, type: 'number' },
  },
  tiebreaker: 's.id',
  defaultSort: [{ colId: 'createdAt', sort: 'desc' }],
});
