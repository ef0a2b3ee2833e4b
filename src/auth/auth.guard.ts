import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { ApiKey, ApiKeyScope } from '../api-keys/api-key.entity.js';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { featuresOf } from '../teams/plans.js';
import { IS_MANAGEMENT_ENDPOINT, IS_PUBLIC, REQUIRED_FEATURES, REQUIRED_SCOPES } from '../common/access/access.decorators.js';
import { BearerAuthenticator } from './bearer-authenticator.js';
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
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;

    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const credential = readCredential(request);
    if (!credential) throw new DomainException('missing_token', 'Send an API key in the x-api-key header, or a bearer token.');
    const principal: Principal =
      credential.kind === 'bearer'
        ? await this.bearer.authenticate(credential.value)
        : { kind: 'apiKey', ...(await this.apiKeys.authenticate(credential.value)) };
    request.principal = principal;

    // Each credential opens one kind of route: keys the public API, team members' tokens the management API.
    const management = this.reflector.getAllAndOverride<boolean>(IS_MANAGEMENT_ENDPOINT, targets) ?? false;
    if (management && principal.kind === 'apiKey') {
      throw new DomainException('endpoint_not_available', 'This endpoint is not open to API keys; use a team member token.');
    }
    if (!management && principal.kind === 'user') {
      throw new DomainException('endpoint_not_available', 'This public API endpoint takes an API key; team member tokens serve the management API.');
    }
    if (principal.kind === 'apiKey') assertScopes(principal.apiKey, this.reflector.getAllAndOverride<ApiKeyScope[]>(REQUIRED_SCOPES, targets) ?? []);
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
