import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import type { CredentialQuery } from './dcql.js';
import type { VerifierIdentity } from './eudi-verifier-identity.js';

/** What a session's request holds that its response is checked against; kept encrypted until answered. */
export interface PendingSecrets {
  nonce: string;
  state: string;
  /** The per-session ECDH-ES P-256 key the wallet encrypts its response to (private JWK). */
  responseKey: JWK;
}

export const RESPONSE_ENCRYPTION = { alg: 'ECDH-ES', enc: ['A128GCM', 'A256GCM'] } as const;
/** How long a wallet may hold the request object before presenting. */
const REQUEST_LIFETIME_S = 300;

// 128 random bits each (docs/eudi-wallet.md).
const random128 = () => randomBytes(16).toString('base64url');

export async function newPendingSecrets(): Promise<PendingSecrets> {
  const { privateKey } = await generateKeyPair(RESPONSE_ENCRYPTION.alg, { crv: 'P-256', extractable: true });
  return { nonce: random128(), state: random128(), responseKey: await exportJWK(privateKey) };
}

// ':' and '/' may stay as they are in a query (RFC 3986, 3.4): the link reads as docs/eudi-wallet.md shows it.
const queryValue = (value: string) => encodeURIComponent(value).replace(/%3A/g, ':').replace(/%2F/g, '/');

/** The link a wallet opens (OpenID4VP 1.0, 5.10, request by reference), as launchUrl and as the QR. */
export const walletLink = (clientId: string, requestUri: string): string =>
  `openid4vp://?client_id=${queryValue(clientId)}&request_uri=${queryValue(requestUri)}`;

/**
 * The signed request object (OpenID4VP 1.0 with JAR, RFC 9101; docs/eudi-wallet.md, "The flow"):
 * `typ oauth-authz-req+jwt`, ES256 by the access certificate's key with its chain in `x5c`. The
 * response comes back to `response_uri` encrypted to the session's own key (`direct_post.jwt`), whose
 * `kid` is the order's id so that the response finds its session before it is decrypted.
 */
export async function signedRequestObject(request: {
  identity: VerifierIdentity;
  orderRef: string;
  secrets: PendingSecrets;
  responseUri: string;
  query: CredentialQuery;
  now: Date;
}): Promise<string> {
  const { identity, orderRef, secrets, now } = request;
  const { d: _private, ...publicKey } = secrets.responseKey;
  const iat = Math.floor(now.getTime() / 1000);
  return (
    new SignJWT({
      client_id: identity.clientId,
      response_type: 'vp_token',
      response_mode: 'direct_post.jwt',
      response_uri: request.responseUri,
      nonce: secrets.nonce,
      state: secrets.state,
      dcql_query: request.query,
      client_metadata: {
        jwks: { keys: [{ ...publicKey, kid: orderRef, use: 'enc', alg: RESPONSE_ENCRYPTION.alg }] },
        encrypted_response_enc_values_supported: RESPONSE_ENCRYPTION.enc,
        vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] } },
      },
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c: identity.x5c })
      // A wallet reached by a link has no issuer of its own: the static audience (OpenID4VP 1.0, 5.8).
      .setAudience('https://self-issued.me/v2')
      .setIssuedAt(iat)
      .setExpirationTime(iat + REQUEST_LIFETIME_S)
      .sign(identity.signingKey)
  );
}
