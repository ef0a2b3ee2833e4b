import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import type { AuditAction } from './audit-actions.js';

// What @Audited() puts on a route and AuditInterceptor reads (docs/audit.md).
export const AUDITED = 'audit:action';

/** What a route's answer (and its request) say about the change, for its audit entry. */
export interface AuditDescription {
  targetId?: string | null;
  environment?: ApiKeyEnvironment | null;
  details?: Record<string, unknown>;
}

export interface AuditedRoute {
  action: AuditAction;
  /** Picks the target and a few non-secret facts; never the answer's secret (a key, a signing secret). */
  describe: (request: { params: Record<string, string>; body: unknown }, answer: unknown) => AuditDescription;
  /** The handler answers the changed thing only for the entry; the client gets no body (204). */
  noContent?: boolean;
}
