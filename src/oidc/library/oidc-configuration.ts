import type { JWK } from 'jose';
import type { AdapterFactory, Client, Configuration, FindAccount, Grant } from 'oidc-provider';
import { AGE_ACR, scopeClaims } from './oidc-claims.js';
import { PERSONAL_NUMBER_CLAIMS } from '../clients/oidc-client.js';
import { oidcErrors, oidcLibrary } from './oidc-library.js';
import { BANKID_PAYMENT, PAYMENT_RESOURCE, paymentDetailProblem } from '../oidc-payment-details.js';
import { logoutSource, postLogoutSuccessSource, renderError } from './oidc-provider-pages.js';

/** The lifetimes, in seconds (docs/oidc.md, "Tokens"). */
export const OIDC_TTL = {
  AccessToken: 600,
  AuthorizationCode: 60,
  IdToken: 3600,
  // An e-ID login takes a few minutes at most; the page must outlive a session (SESSION_TTL).
  Interaction: 900,
  Session: 3600,
  RefreshToken: 14 * 24 * 3600,
  PushedAuthorizationRequest: 120,
  BackchannelAuthenticationRequest: 600,
} as const;

/**
 * A grant carries its login's claims (docs/oidc.md, "State"), so it lives only as long as a token of
 * the login may ask for them: the session's hour, or with offline_access the refresh token's
 * lifetime; and never past SESSION_PII_RETENTION, the time the service keeps a login's personal data.
 */
export function grantLifetime(grant: Grant, piiRetentionSeconds: number): number {
  const offline = (grant.openid?.scope ?? '').split(' ').includes('offline_access');
  return Math.min(offline ? refreshTokenLifetime(piiRetentionSeconds) : OIDC_TTL.Session, piiRetentionSeconds);
}

/** A refresh token reads its grant's claims: it cannot outlive them (docs/oidc.md, "State"). */
export function refreshTokenLifetime(piiRetentionSeconds: number): number {
  return Math.min(OIDC_TTL.RefreshToken, piiRetentionSeconds);
}

// eidgw_subject_type: the registered one; a pairwise CIBA client is shown to the library as public (docs/oidc.md, "CIBA").
/** The most a client's jwks_uri may answer (docs/oidc.md, "Registering a client"). */
export const JWKS_URI_MAX_BYTES = 64 * 1024;

export const CLIENT_EXTRAS = ['eidgw_team_id', 'eidgw_environment', 'eidgw_subject_type'] as const;

/**
 * One of CLIENT_EXTRAS as the client holds it: the library keeps extra metadata on the instance under
 * its own name, as metadata() answers it. Read per token and userinfo request: metadata() rebuilds
 * every member's name each call (docs/performance.md).
 */
export function clientExtra(client: Client, name: (typeof CLIENT_EXTRAS)[number]): unknown {
  return Reflect.get(client, name);
}

export interface OidcConfigurationInput {
  signingJwk: JWK;
  cookieKey: string;
  /** Every acr value the providers answer to (their OpenID face, docs/providers.md). */
  acrValues: string[];
  /** The business claim names the upstreams deliver (docs/upstream-oidc.md, "Business identities"). */
  businessClaims: string[];
  adapter: AdapterFactory;
  findAccount: FindAccount;
  pairwiseIdentifier: (clientId: string, subject: string) => string;
  /** Origins a client's redirect URIs name: a browser app of the client may call the token endpoint. */
  corsAllowed: (origin: string, redirectUris: readonly string[]) => boolean;
  /** SESSION_PII_RETENTION in seconds: no grant keeps a login's personal data longer. */
  piiRetentionSeconds: number;
  /** CIBA's hooks and the lifetime of its requests (docs/oidc.md, "CIBA"); off without them. */
  ciba?: { feature: Record<string, unknown>; ttl: (ctx: unknown) => number };
}

// Every authorization request is a fresh e-ID login: one client's login never signs the user in at
// another client, of the same team or another (docs/oidc.md, "No single sign-on").
function freshLoginPolicy() {
  const { interactionPolicy } = oidcLibrary();
  const policy = interactionPolicy.base();
  const login = policy.get('login')!;
  login.checks.add(
    new interactionPolicy.Check('eidgw_fresh_login', 'Every authorization request is a fresh e-ID login', (ctx) =>
      ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
    ),
  );
  return policy;
}

/** oidc-provider's configuration: what the service offers (docs/oidc.md); the protocol rules stay the library's. */
export function oidcConfiguration(input: OidcConfigurationInput): Configuration {
  return {
    adapter: input.adapter,
    jwks: { keys: [input.signingJwk] },
    cookies: { keys: [input.cookieKey], long: { signed: true }, short: { signed: true } },
    // The age acr is the front's own, met by whichever e-ID answers (docs/age-verification.md).
    acrValues: [...input.acrValues, AGE_ACR],
    claims: scopeClaims(PERSONAL_NUMBER_CLAIMS, input.businessClaims),
    scopes: ['openid', 'offline_access'],
    // Scope claims go into the id token too: many platforms map claims from it alone.
    conformIdTokenClaims: false,
    subjectTypes: ['public', 'pairwise'],
    pairwiseIdentifier: (_ctx, subject, client) => input.pairwiseIdentifier(client.clientId, subject),
    findAccount: input.findAccount,
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: 'ES256',
    },
    enabledJWA: {
      idTokenSigningAlgValues: ['ES256'],
      clientAuthSigningAlgValues: ['ES256', 'ES384', 'EdDSA', 'RS256', 'PS256'],
      requestObjectSigningAlgValues: ['ES256', 'ES384', 'EdDSA', 'RS256', 'PS256'],
    },
    extraClientMetadata: { properties: [...CLIENT_EXTRAS] },
    // A client's jwks_uri answers what it likes: a key set is a few kilobytes, never megabytes held in memory.
    fetchResponseBodyLimits: {
      'client_id metadata document': 5 * 1024,
      jwks_uri: JWKS_URI_MAX_BYTES,
      sector_identifier_uri: JWKS_URI_MAX_BYTES,
    },
    // callInitiator: who calls whom on a CIBA phone login (docs/oidc.md, "CIBA").
    extraParams: ['https://id.oidc.se/param/userMessage', 'https://id.oidc.se/param/signRequest', 'callInitiator'],
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    clientBasedCORS: (_ctx, origin, client) => input.corsAllowed(origin, client.redirectUris ?? []),
    interactions: { url: (_ctx, interaction) => `/oidc/interaction/${interaction.uid}`, policy: freshLoginPolicy() },
    // Our pages in place of the library's, under the login page's CSP (docs/oidc.md, "Pages").
    renderError: (ctx, out) => renderError(ctx, out),
    features: {
      devInteractions: { enabled: false },
      pushedAuthorizationRequests: { enabled: true, requirePushedAuthorizationRequests: false },
      requestObjects: { enabled: true },
      dPoP: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => logoutSource(ctx, form),
        postLogoutSuccessSource: (ctx) => postLogoutSuccessSource(ctx),
      },
      claimsParameter: { enabled: true },
      // BankID payment as a rich authorization request (docs/oidc.md, "Payment"): the details approved are the ones granted.
      richAuthorizationRequests: {
        enabled: true,
        types: {
          [BANKID_PAYMENT]: {
            validate: (_ctx, detail) => {
              const problem = paymentDetailProblem(detail);
              if (problem) throw new (oidcErrors().InvalidAuthorizationDetails)(problem);
            },
          },
        },
        authorizationDetailsForGrantSource: (ctx) => ctx.oidc.grant?.rar,
        authorizationDetailsForAccessToken: (_ctx, _token, source) => source?.rar,
        authorizationDetailsForIntrospection: (_ctx, token) => token.rar,
      },
      // A payment's access token is for the payment resource (RAR needs one); every other token stays userinfo's.
      resourceIndicators: {
        enabled: true,
        defaultResource: (ctx, _client, oneOf) => oneOf ?? (ctx.oidc.params?.authorization_details ? PAYMENT_RESOURCE : undefined),
        useGrantedResource: (_ctx, model) => (model as { resource?: unknown }).resource === PAYMENT_RESOURCE,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== PAYMENT_RESOURCE) throw new (oidcErrors().InvalidTarget)();
          return { scope: '', audience: PAYMENT_RESOURCE, accessTokenFormat: 'opaque' };
        },
      },
      // The phone channel and Freja over OpenID (docs/oidc.md, "CIBA").
      ciba: (input.ciba?.feature ?? { enabled: false }) as NonNullable<Configuration['features']>['ciba'],
    },
    ttl: {
      ...OIDC_TTL,
      RefreshToken: () => refreshTokenLifetime(input.piiRetentionSeconds),
      Grant: (_ctx, grant) => grantLifetime(grant, input.piiRetentionSeconds),
      ...(input.ciba ? { BackchannelAuthenticationRequest: input.ciba.ttl } : {}),
    },
  };
}
