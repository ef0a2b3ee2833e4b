import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyScope } from '../api-keys/api-key.entity.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { noteFailedAttempt } from '../protection/ip-blocks/failed-attempt.js';
import { IS_KEY_OR_MEMBER_ENDPOINT, IS_MANAGEMENT_ENDPOINT, IS_PUBLIC, REQUIRED_FEATURES, REQUIRED_SCOPES } from './access.decorators.js';
import { consoleSessionToken } from '../console/console-cookie.js';
import { assertAccess } from './access-checks.js';
import { readCredential } from './credentials.js';
import { PrincipalAuthenticator } from './principal-authenticator.js';
import type { Principal } from './principal.js';

/**
 * Authentication and authorisation for every route, in the order docs/api.md pins:
 * credential → key state and subscription → scope, feature, endpoint kind.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: PrincipalAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;

    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const management = this.reflector.getAllAndOverride<boolean>(IS_MANAGEMENT_ENDPOINT, targets) ?? false;
    const either = this.reflector.getAllAndOverride<boolean>(IS_KEY_OR_MEMBER_ENDPOINT, targets) ?? false;
    // The console's cookie stands in for the bearer header on the management API (and routes open to both), behind its CSRF check (docs/console.md).
    const presented = readCredential(request);
    const cookieToken = !presented && (management || either) ? consoleSessionToken(request) : null;
    const credential = presented ?? (cookieToken ? ({ kind: 'bearer', value: cookieToken } as const) : null);
    if (!credential) throw new DomainException('missing_token', 'Send an API key in the x-api-key header, or a bearer token.');
    let principal: Principal;
    try {
      principal = await this.authenticator.authenticate(credential);
    } catch (error) {
      noteFailedAttempt(request, error);
      throw error;
    }
    request.principal = principal;

    // Each credential opens one kind of route: keys the public API, team members' tokens the management API.
    assertAccess(principal, {
      apiKey: !management || either,
      members: management || either,
      scopes: this.reflector.getAllAndOverride<ApiKeyScope[]>(REQUIRED_SCOPES, targets) ?? [],
      features: this.reflector.getAllAndOverride<string[]>(REQUIRED_FEATURES, targets) ?? [],
    });
    return true;
  }
}
