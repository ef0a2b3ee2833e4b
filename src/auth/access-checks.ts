import type { ApiKey, ApiKeyScope } from '../api-keys/api-key.entity.js';
import type { Principal } from './principal.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { featuresOf } from '../teams/plans.js';
import type { Team } from '../teams/team.entity.js';

/**
 * Step 5 of the order of checks (docs/protection.md): endpoint kind, scope, plan feature. Shared by the
 * AuthGuard (our routes) and forward authentication (a gateway's routes, docs/forward-auth.md).
 */
export interface EndpointAccess {
  /** Open to API keys (a public API endpoint). */
  apiKey: boolean;
  /** Open to team members' bearer tokens. */
  members: boolean;
  scopes: readonly ApiKeyScope[];
  features: readonly string[];
}

export function assertAccess(principal: Principal, endpoint: EndpointAccess): void {
  if (principal.kind === 'apiKey' && !endpoint.apiKey) {
    throw new DomainException('endpoint_not_available', 'This endpoint is not open to API keys; use a team member token.');
  }
  if (principal.kind === 'user' && !endpoint.members) {
    throw new DomainException(
      'endpoint_not_available',
      'This public API endpoint takes an API key; team member tokens serve the management API.',
    );
  }
  if (principal.kind === 'apiKey') assertScopes(principal.apiKey, endpoint.scopes);
  assertFeatures(principal.team, endpoint.features);
}

function assertScopes(apiKey: ApiKey, scopes: readonly ApiKeyScope[]): void {
  const missingScopes = scopes.filter((scope) => !apiKey.scopes.includes(scope));
  if (missingScopes.length > 0) {
    throw new DomainException('insufficient_scope', `The API key lacks scope ${missingScopes.join(', ')}.`, {
      extensions: { scopes: missingScopes },
    });
  }
}

function assertFeatures(team: Team, features: readonly string[]): void {
  if (features.length === 0) return;
  const teamFeatures = featuresOf(team);
  const missingFeatures = features.filter((feature) => !teamFeatures.has(feature));
  if (missingFeatures.length > 0) {
    throw new DomainException('feature_required', `The team's plan lacks ${missingFeatures.join(', ')}.`, {
      extensions: { features: missingFeatures },
    });
  }
}
