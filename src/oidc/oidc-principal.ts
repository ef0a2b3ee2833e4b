import type { ApiKey } from '../api-keys/api-key.entity.js';
import type { ApiKeyPrincipal } from '../auth/principal.js';
import type { Team } from '../teams/team.entity.js';
import type { OidcClient } from './clients/oidc-client.js';

/**
 * An OIDC client acting as its team's key toward the session engine: its sessions are the team's, in
 * the client's environment, with no API key of their own (api_key_id stays null; the client's id is in
 * the session's metadata as oidcClientId, docs/oidc.md).
 */
export function clientPrincipal(client: OidcClient, team: Team): ApiKeyPrincipal {
  // The client's maxRisk holds its sessions as a key's does: a riskier completion fails riskTooHigh (docs/oidc.md).
  const apiKey = {
    id: null,
    teamId: team.id,
    environment: client.environment,
    scopes: ['sessions:read', 'sessions:write'],
    maxRisk: client.maxRisk,
  };
  return { kind: 'apiKey', apiKey: apiKey as unknown as ApiKey, team };
}
