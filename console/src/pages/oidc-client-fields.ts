// The OIDC client form's model: the API's view of a client and the body the form sends.

export const PROVIDERS = ['bankid', 'freja', 'simulator'] as const;
export const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;
export const CLAIMS = ['ssn', 'nin', 'pnr', 'personal_number', 'personalNumber', 'national_id'] as const;

/** A client as the management API answers it (docs/oidc.md, "Registering a client"). */
export interface OidcClientView {
  id: string;
  clientId: string;
  environment: 'test' | 'live';
  name: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  tokenEndpointAuthMethod: (typeof AUTH_METHODS)[number];
  jwksUri: string | null;
  providers: string[] | null;
  subjectType: 'pairwise' | 'public';
  requirePushedAuthorizationRequests: boolean;
  personalNumberClaim: string | null;
  maxRisk: 'low' | 'moderate' | null;
  backchannelTokenDeliveryMode: 'poll' | 'ping' | null;
  backchannelClientNotificationEndpoint: string | null;
  issuer: string;
}

export type Fields = Omit<OidcClientView, 'id' | 'clientId' | 'issuer'>;

export const NEW_CLIENT: Fields = {
  environment: 'test',
  name: '',
  redirectUris: [],
  postLogoutRedirectUris: [],
  tokenEndpointAuthMethod: 'client_secret_basic',
  jwksUri: null,
  providers: null,
  subjectType: 'pairwise',
  requirePushedAuthorizationRequests: false,
  personalNumberClaim: null,
  maxRisk: null,
  backchannelTokenDeliveryMode: null,
  backchannelClientNotificationEndpoint: null,
};

export const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The body the API takes: on creation every field; on an edit all but the environment and the
 * authentication method, which never change. Empty choices are null, so an edit can clear them.
 */
export function bodyOf(fields: Fields, creating: boolean) {
  // CIBA is for confidential clients only; the form hides it for a public one.
  const ciba = fields.tokenEndpointAuthMethod === 'none' ? null : fields.backchannelTokenDeliveryMode;
  return {
    name: fields.name,
    redirectUris: fields.redirectUris,
    postLogoutRedirectUris: fields.postLogoutRedirectUris,
    providers: fields.providers,
    subjectType: fields.subjectType,
    requirePushedAuthorizationRequests: fields.requirePushedAuthorizationRequests,
    personalNumberClaim: fields.personalNumberClaim,
    maxRisk: fields.maxRisk,
    backchannelTokenDeliveryMode: ciba,
    backchannelClientNotificationEndpoint: ciba === 'ping' ? fields.backchannelClientNotificationEndpoint : null,
    ...(creating ? { environment: fields.environment, tokenEndpointAuthMethod: fields.tokenEndpointAuthMethod } : {}),
    ...(creating && fields.tokenEndpointAuthMethod === 'private_key_jwt' ? { jwksUri: fields.jwksUri } : {}),
  };
}
