import { Injectable } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyScope } from '../api-keys/api-key.entity.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { consoleSessionToken } from '../console/console-cookie.js';
import { noteFailedAttempt } from '../protection/ip-blocks/failed-attempt.js';
import { assertAccess } from './access-checks.js';
import { IS_KEY_OR_MEMBER_ENDPOINT, IS_MANAGEMENT_ENDPOINT, IS_PUBLIC, REQUIRED_FEATURES, REQUIRED_SCOPES } from './access.decorators.js';
import { readCredential } from './credentials.js';
import { PrincipalAuthenticator } from './principal-authenticator.js';
import type { Principal } from './principal.js';

/** What a route's access decorators ask of its caller. */
export interface RouteAccess {
  management: boolean;
  either: boolean;
  scopes: readonly ApiKeyScope[];
  features: readonly string[];
}

/**
 * A route's access as its decorators declare it (the handler's over its controller's); null for a public
 * route. Read per request by the AuthGuard, once per route by the hot routes (docs/architecture.md, "Hot routes").
 */
export function routeAccessOf(reflector: Reflector, targets: Parameters<Reflector['getAllAndOverride']>[1]): RouteAccess | null {
  if (reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return null;
  return {
    management: reflector.getAllAndOverride<boolean>(IS_MANAGEMENT_ENDPOINT, targets) ?? false,
    either: reflector.getAllAndOverride<boolean>(IS_KEY_OR_MEMBER_ENDPOINT, targets) ?? false,
    scopes: reflector.getAllAndOverride<ApiKeyScope[]>(REQUIRED_SCOPES, targets) ?? [],
    features: reflector.getAllAndOverride<string[]>(REQUIRED_FEATURES, targets) ?? [],
  };
}

/**
 * Authentication and authorisation of one request, in the order docs/api.md pins: credential → key
 * state and subscription → scope, feature, endpoint kind. Sets `request.principal`.
 */
@Injectable()
export class RequestAuthorizer {
  constructor(private readonly authenticator: PrincipalAuthenticator) {}

  async authorize(request: FastifyRequest, route: RouteAccess): Promise<Principal> {
    // The console's cookie stands in for the bearer header on the management API (and routes open to both), behind its CSRF check (docs/console.md).
    const presented = readCredential(request);
    const cookieToken = !presented && (route.management || route.either) ? consoleSessionToken(request) : null;
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
      apiKey: !route.management || route.either,
      members: route.management || route.either,
      scopes: route.scopes,
      features: route.features,
    });
    return principal;
  }
}
