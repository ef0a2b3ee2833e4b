import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { RequestAuthorizer, routeAccessOf } from './request-authorizer.js';

/** Authentication and authorisation for every Nest route (RequestAuthorizer; the hot routes call it directly). */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authorizer: RequestAuthorizer,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = routeAccessOf(this.reflector, [context.getHandler(), context.getClass()]);
    if (route) await this.authorizer.authorize(context.switchToHttp().getRequest<FastifyRequest>(), route);
    return true;
  }
}
