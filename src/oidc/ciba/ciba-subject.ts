import type { OidcClient } from '../clients/oidc-client.js';
import { pairwiseSubject } from '../library/oidc-claims.js';
import { CIBA_GRANT_TYPE } from './ciba-request.js';

/**
 * oidc-provider wants a pairwise CIBA client to have a sector_identifier_uri and a jwks_uri (its
 * pairwise subjects derive from a sector). Ours derive from the client id (docs/oidc.md, "Subjects"),
 * so such a client is shown to the library as `public` and its accounts carry the pairwise value
 * already: the `sub` is the same as it would be otherwise (docs/oidc.md, "CIBA").
 */
export function pairwiseByAccount(client: OidcClient): boolean {
  return client.subjectType === 'pairwise' && client.backchannelTokenDeliveryMode !== null;
}

/** The accountId of a person at a client: the pairwise value where the library cannot make it. */
export function accountIdFor(client: OidcClient, key: Buffer, personSubject: string): string {
  return pairwiseByAccount(client) ? pairwiseSubject(key, client.clientId, personSubject) : personSubject;
}

/** The CIBA part of a client's metadata for oidc-provider (RFC 7591 names, CIBA Core 4). */
export function cibaClientMetadata(client: OidcClient): Record<string, unknown> {
  if (!client.backchannelTokenDeliveryMode) return {};
  return {
    backchannel_token_delivery_mode: client.backchannelTokenDeliveryMode,
    ...(client.backchannelClientNotificationEndpoint
      ? { backchannel_client_notification_endpoint: httpsForm(client.backchannelClientNotificationEndpoint) }
      : {}),
    backchannel_user_code_parameter: false,
    grant_types: ['authorization_code', 'refresh_token', CIBA_GRANT_TYPE],
    ...(pairwiseByAccount(client) ? { subject_type: 'public' } : {}),
  };
}

/**
 * The library accepts only https notification endpoints. Outside production a registration may name
 * an http one (a local receiver, docs/oidc.md, "CIBA"); the library is shown its https form to
 * pass its check, and the ping itself always goes to the registered URL (CibaService reads it).
 */
function httpsForm(endpoint: string): string {
  return endpoint.startsWith('http:') ? `https:${endpoint.slice('http:'.length)}` : endpoint;
}
