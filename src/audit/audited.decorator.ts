import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import type { AuditAction } from './audit-actions.js';
import { AUDITED, type AuditedRoute } from './audited-route.js';
import { AuditInterceptor } from './audit.interceptor.js';

/**
 * A management route whose success is an audit entry (docs/audit.md), written by AuditInterceptor
 * after the handler succeeded, with the member and the client address of the request. The
 * interceptor is these routes' own, not global: every other request skips Nest's interceptor chain
 * (docs/performance.md).
 */
export const Audited = (action: AuditAction, describe: AuditedRoute['describe'], options: { noContent?: boolean } = {}) =>
  applyDecorators(SetMetadata(AUDITED, { action, describe, ...options } satisfies AuditedRoute), UseInterceptors(AuditInterceptor));

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
