import { SetMetadata } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import type { AuditAction } from './audit-actions.js';

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

/**
 * A management route whose success is an audit entry (docs/audit.md), written by AuditInterceptor
 * after the handler succeeded, with the member and the client address of the request.
 */
export const Audited = (action: AuditAction, describe: AuditedRoute['describe'], options: { noContent?: boolean } = {}) =>
  SetMetadata(AUDITED, { action, describe, ...options } satisfies AuditedRoute);

/** The usual description: the answer's id and environment. */
export const answerIdAndEnvironment =
  (details?: (answer: Record<string, unknown>, body: Record<string, unknown>) => Record<string, unknown>): AuditedRoute['describe'] =>
  (request, answer) => {
    const view = (answer ?? {}) as Record<string, unknown>;
    return {
      targetId: typeof view.id === 'string' ? view.id : (request.params.id ?? null),
      environment: view.environment === 'test' || view.environment === 'live' ? view.environment : null,
      details: details?.(view, (request.body ?? {}) as Record<string, unknown>),
    };
  };
