import { Injectable, Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { mergeMap, type Observable } from 'rxjs';
import { errorForLog } from '../common/logging/error-for-log.js';
import { AuditLog } from './audit-log.service.js';
import { AUDITED, type AuditedRoute } from './audited-route.js';

/**
 * Writes the audit entry of an @Audited() route once its handler succeeded (docs/audit.md). A
 * failed action writes nothing: the log tells what changed, not what was tried.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  private readonly logger = new Logger(AuditInterceptor.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditLog,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = this.reflector.get<AuditedRoute | undefined>(AUDITED, context.getHandler());
    if (!route) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return next.handle().pipe(
      mergeMap(async (answer: unknown) => {
        const principal = request.principal;
        if (principal?.kind === 'user') {
          const description = route.describe({ params: (request.params ?? {}) as Record<string, string>, body: request.body }, answer);
          try {
            await this.audit.record({
              teamId: principal.team.id,
              action: route.action,
              actor: { kind: 'member', user: principal.user, clientAddress: request.ip ?? null },
              ...description,
            });
          } catch (error) {
            // The change is made and cannot be taken back here; the missing entry must be seen.
            this.logger.error({ action: route.action, err: errorForLog(error) }, 'Audit entry not written');
          }
        }
        return route.noContent ? undefined : answer;
      }),
    );
  }
}
