import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { ApiKey, ApiKeyScope } from '../api-keys/api-key.entity.js';
import { ApiKeyLastUseService } from '../api-keys/api-key-last-use.service.js';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { noteFailedAttempt } from '../protection/ip-blocks/failed-attempt.js';
import { featuresOf } from '../teams/plans.js';
import { IS_MANAGEMENT_ENDPOINT, IS_PUBLIC, REQUIRED_FEATURES, REQUIRED_SCOPES } from '../common/access/access.decorators.js';
import { BearerAuthenticator } from './bearer-authenticator.js';
import { consoleSessionToken } from '../console/console-cookie.js';
import { readCredential } from './credentials.js';
import type { Principal } from '../common/access/principal.js';

/**
 * Authentication and authorisation for every route, in the order docs/api.md pins:
 * credential → key state and subscription → scope, feature, endpoint kind.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly bearer: BearerAuthenticator,
    private readonly lastUse: ApiKeyLastUseService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;

    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const management = this.reflector.getAllAndOverride<boolean>(IS_MANAGEMENT_ENDPOINT, targets) ?? false;
    // The console's cookie stands in for the bearer header on the management API only, behind its CSRF check (docs/console.md).
    const presented = readCredential(request);
    const cookieToken = !presented && management ? consoleSessionToken(request) : null;
    const credential = presented ?? (cookieToken ? ({ kind: 'bearer', value: cookieToken } as const) : null);
    if (!credential) throw new DomainException('missing_token', 'Send an API key in the x-api-key header, or a bearer token.');
    let principal: Principal;
    try {
      principal =
        credential.kind === 'bearer'
          ? await this.bearer.authenticate(credential.value)
          : { kind: 'apiKey', ...(await this.apiKeys.authenticate(credential.value)) };
    } catch (error) {
      noteFailedAttempt(request, error);
      throw error;
    }
    request.principal = principal;
    // A key that authenticated was used, whatever the later checks decide; noted in memory, written off the request path.
    if (principal.kind === 'apiKey') this.lastUse.note(principal.apiKey.id);

    // Each credential opens one kind of route: keys the public API, team members' tokens the management API.
    if (management && principal.kind === 'apiKey') {
      throw new DomainException('endpoint_not_available', 'This endpoint is not open to API keys; use a team member token.');
    }
    if (!management && principal.kind === 'user') {
      throw new DomainException(
        'endpoint_not_available',
        'This public API endpoint takes an API key; team member tokens serve the management API.',
      );
    }
    if (principal.kind === 'apiKey')
      assertScopes(principal.apiKey, this.reflector.getAllAndOverride<ApiKeyScope[]>(REQUIRED_SCOPES, targets) ?? []);
    const features = this.reflector.getAllAndOverride<string[]>(REQUIRED_FEATURES, targets) ?? [];
    const teamFeatures = featuresOf(principal.team);
    const missingFeatures = features.filter((feature) => !teamFeatures.has(feature));
    if (missingFeatures.length > 0) {
      throw new DomainException('feature_required', `The team's plan lacks ${missingFeatures.join(', ')}.`, {
        extensions: { features: missingFeatures },
      });
    }
    return true;
  }
}

function assertScopes(apiKey: ApiKey, scopes: ApiKeyScope[]): void {
  const missingScopes = scopes.filter((scope) => !apiKey.scopes.includes(scope));
  if (missingScopes.length > 0) {
    throw new DomainException('insufficient_scope', `The API key lacks scope ${missingScopes.join(', ')}.`, {
      extensions: { scopes: missingScopes },
    });
  }
}
