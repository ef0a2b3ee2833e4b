import type { JSONWebKeySet } from 'jose';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';

export const TOKEN_ENDPOINT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];
export const SUBJECT_TYPES = ['pairwise', 'public'] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];
export const MAX_RISKS = ['low', 'moderate'] as const;
export type MaxRisk = (typeof MAX_RISKS)[number];
export const BACKCHANNEL_DELIVERY_MODES = ['poll', 'ping'] as const;
export type BackchannelDeliveryMode = (typeof BACKCHANNEL_DELIVERY_MODES)[number];

// Plain names a platform can map a personal number from (docs/oidc.md, "Claims"). A fixed list: the
// provider publishes its claims at start, and a client must not shadow a standard claim.
export const PERSONAL_NUMBER_CLAIMS = ['ssn', 'nin', 'pnr', 'personal_number', 'personalNumber', 'national_id'] as const;
export type PersonalNumberClaim = (typeof PERSONAL_NUMBER_CLAIMS)[number];

/** One row of oidc_clients: a relying party of a team in one environment (docs/oidc.md, "Clients"). */
export interface OidcClient {
  id: string;
  teamId: string;
  environment: ApiKeyEnvironment;
  clientId: string;
  name: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  /** The secret, encrypted: client_secret_* compare what the client sends with it, so a hash cannot serve. */
  secretEnc: Buffer | null;
  jwks: JSONWebKeySet | null;
  jwksUri: string | null;
  /** Null: every provider the environment offers. */
  providers: string[] | null;
  subjectType: SubjectType;
  requirePar: boolean;
  personalNumberClaim: PersonalNumberClaim | null;
  maxRisk: MaxRisk | null;
  backchannelTokenDeliveryMode: BackchannelDeliveryMode | null;
  backchannelClientNotificationEndpoint: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const secretAad = (id: string) => `oidc_clients:${id}:secret`;
