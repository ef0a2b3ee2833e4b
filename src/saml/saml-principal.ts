import type { ApiKey } from '../api-keys/api-key.entity.js';
import type { ApiKeyPrincipal } from '../auth/principal.js';
import type { Team } from '../teams/team.entity.js';
import type { SamlServiceProvider } from './service-providers/saml-service-provider.js';

/**
 * A service provider acting as its team's key toward the session engine, as an OIDC client does
 * (oidc-principal.ts): its sessions are the team's, in the SP's environment, with no API key of their
 * own; the SP's entityID is in the session's metadata as samlServiceProvider (docs/saml.md).
 */
export function samlPrincipal(sp: SamlServiceProvider, team: Team): ApiKeyPrincipal {
  const apiKey = { id: null, teamId: team.id, environment: sp.environment, scopes: ['sessions:read', 'sessions:write'], maxRisk: null };
  return { kind: 'apiKey', apiKey: apiKey as unknown as ApiKey, team };
}
