import { constantTimeEqual, sha256 } from '../../common/crypto/constant-time.js';
import { pooledRandomBytes } from '../../common/crypto/random-pool.js';

/** The apps' limit for returnUrl (docs/bankid.md): it applies to the address the app receives, nonce included. */
export const RETURN_URL_MAX_LENGTH = 512;
export const RETURN_NONCE_PARAMETER = 'eidgw_nonce';
// 128 bits: unguessable for as long as a session lives, however many tries the limit allows.
const NONCE_BYTES = 16;
// "&eidgw_nonce=" plus 22 base64url characters.
const NONCE_SUFFIX_LENGTH = 1 + RETURN_NONCE_PARAMETER.length + 1 + Math.ceil((NONCE_BYTES * 8) / 6);
/** The longest returnUrl an RP may give: the nonce has to fit into the app's 512 characters too. */
export const RETURN_URL_MAX_INPUT_LENGTH = RETURN_URL_MAX_LENGTH - NONCE_SUFFIX_LENGTH;
export const RETURN_URL_TOO_LONG = `returnUrl must be at most ${RETURN_URL_MAX_INPUT_LENGTH} characters (the service appends a ${NONCE_SUFFIX_LENGTH}-character nonce within the app's limit of ${RETURN_URL_MAX_LENGTH})`;

/**
 * Why a returnUrl is refused, or undefined when it is fine (docs/same-device.md): an absolute https URL
 * (http only outside production, for local demos), no credentials in it, no nonce of its own, and short
 * enough that it still fits the app's limit with our nonce appended.
 */
export function returnUrlProblem(raw: string, production: boolean): string | undefined {
  if (raw.length > RETURN_URL_MAX_INPUT_LENGTH) return RETURN_URL_TOO_LONG;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  const schemes = production ? ['https:'] : ['https:', 'http:'];
  if (!url || !schemes.includes(url.protocol) || !url.hostname) {
    return production
      ? 'returnUrl must be an absolute https URL'
      : 'returnUrl must be an absolute https (or, outside production, http) URL';
  }
  if (url.username || url.password) return 'returnUrl must not carry a user name or password';
  if (url.searchParams.has(RETURN_NONCE_PARAMETER)) return `returnUrl must not carry ${RETURN_NONCE_PARAMETER}: the service adds it`;
  return undefined;
}

/** A fresh return nonce: 128 random bits, base64url. */
export const newReturnNonce = (): string => pooledRandomBytes(NONCE_BYTES).toString('base64url');

/**
 * The RP's address with `eidgw_nonce` appended to its query, before any fragment. The RP's own query is
 * left byte for byte as it was (re-serialising it through URLSearchParams could change its encoding).
 */
export function withReturnNonce(returnUrl: string, nonce: string): string {
  const hashAt = returnUrl.indexOf('#');
  const [base, fragment] = hashAt < 0 ? [returnUrl, ''] : [returnUrl.slice(0, hashAt), returnUrl.slice(hashAt)];
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${RETURN_NONCE_PARAMETER}=${nonce}${fragment}`;
}

/** A session keeps only this hash of its nonce: a database reader cannot replay a return. */
export const returnNonceHash = (nonce: string): Buffer => sha256(nonce);

/** Compares the nonce the RP's page received with the session's, in constant time. */
export const returnNonceMatches = (given: string, expectedHash: Buffer): boolean => constantTimeEqual(returnNonceHash(given), expectedHash);
