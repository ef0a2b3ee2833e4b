import type { AdapterPayload } from 'oidc-provider';
import { cibaClientMetadata } from '../ciba/ciba-subject.js';
import type { OidcClient } from './oidc-client.js';
import { BANKID_PAYMENT } from '../oidc-payment-details.js';

/** A registration as oidc-provider's client metadata (RFC 7591 names); the team and environment ride along. */
export function clientMetadata(client: OidcClient, secret: string | undefined): AdapterPayload {
  return {
    client_id: client.clientId,
    ...(secret ? { client_secret: secret } : {}),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    ...(client.jwks ? { jwks: client.jwks } : {}),
    ...(client.jwksUri ? { jwks_uri: client.jwksUri } : {}),
    subject_type: client.subjectType,
    require_pushed_authorization_requests: client.requirePar,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    // Every client may ask for a BankID payment (docs/oidc.md, "Payment"); the providers it may use decide where.
    authorization_details_types: [BANKID_PAYMENT],
    eidgw_team_id: client.teamId,
    eidgw_environment: client.environment,
    eidgw_subject_type: client.subjectType,
    // CIBA clients (docs/oidc.md, "CIBA"): their grant type, delivery mode and notification endpoint.
    ...cibaClientMetadata(client),
  };
}
