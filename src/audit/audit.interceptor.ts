import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import type { DataSource } from 'typeorm';
import { inOneTransaction } from '../database/unit-of-work.js';
import { AuditLog } from './audit-log.service.js';
import { AUDITED, type AuditedRoute } from './audited-route.js';

/**
 * Runs an @Audited() route's handler and writes its audit entry in one transaction (docs/audit.md):
 * every query the handler makes joins it, so the change and its entry commit together, or neither
 * does (a failed entry fails the request and undoes the change). A failed action writes nothing: the
 * log tells what changed, not what was tried.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditLog,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = this.reflector.get<AuditedRoute | undefined>(AUDITED, context.getHandler());
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const principal = request.principal;
    if (!route || principal?.kind !== 'user') return next.handle();
    return from(
      inOneTransaction(this.dataSource, async (manager) => {
        // handle() is called inside the unit of work, so the handler runs in its async context.
        const answer: unknown = await lastValueFrom(next.handle(), { defaultValue: undefined });
        const description = route.describe({ params: (request.params ?? {}) as Record<string, string>, body: request.body }, answer);
        await this.audit.record(
          {
            teamId: principal.team.id,
            action: route.action,
            actor: { kind: 'member', user: principal.user, clientAddress: request.ip ?? null },
            ...description,
          },
          manager,
        );
        return route.noContent ? undefined : answer;
      }),
    );
  }
}
