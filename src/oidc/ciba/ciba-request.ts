import type { CibaFace, EidChannel, EidOperation } from '../../eid-providers/eid-provider.js';
import type { OpenIdProvider } from '../../eid-providers/eid-provider.registry.js';
import { isSwedishPersonalNumber } from '../../common/validation/swedish-personal-number.js';
import { SCOPE } from '../library/oidc-claims.js';

export const CIBA_GRANT_TYPE = 'urn:openid:params:grant-type:ciba';
/** What BankID's app shows (docs/oidc.md, "CIBA"): the library's default of 20 plain characters is far too strict. */
export const MAX_BINDING_MESSAGE = 1500;
/** Seconds between two token requests of one auth_req_id; closer ones get slow_down (docs/oidc.md, "CIBA"). */
export const CIBA_POLL_INTERVAL_S = 2;

/** login_hint as CIBA takes it here: 12 digits, or `sub:ssn:<12 digits>`, with the Luhn check digit. */
export function cibaPersonalNumber(loginHint: unknown): string | undefined {
  if (typeof loginHint !== 'string') return undefined;
  const digits = /^(?:sub:ssn:)?(\d{12})$/.exec(loginHint)?.[1];
  return digits && isSwedishPersonalNumber(digits) ? digits : undefined;
}

/**
 * The person a login_hint names for the provider asked (docs/oidc.md, "CIBA"): the provider's own
 * reading where it has one (an upstream's national identifier), else a Swedish personal number.
 */
export function cibaPerson(loginHint: unknown, face: CibaFace | undefined): { identifier: string; personKey: string } | undefined {
  if (typeof loginHint !== 'string') return undefined;
  if (face?.loginHint) return face.loginHint(loginHint);
  const personalNumber = cibaPersonalNumber(loginHint);
  return personalNumber ? { identifier: personalNumber, personKey: personalNumber } : undefined;
}

export interface CibaMethod {
  acr: string;
  provider: string;
  operation: EidOperation;
  channel: EidChannel;
}

/**
 * The method of a backchannel request: the first of its acr_values whose provider the client may use
 * over CIBA, or without acr_values the first such provider. Each provider's CIBA acr and channel are
 * its own (its OpenID face): BankID calls the person's phone, Freja pushes to the app of the person named.
 */
export function cibaMethodFor(acrValues: unknown, scope: unknown, usable: readonly OpenIdProvider[]): CibaMethod | undefined {
  const operation: EidOperation = typeof scope === 'string' && scope.split(' ').includes(SCOPE.sign) ? 'sign' : 'auth';
  const requested =
    typeof acrValues === 'string' && acrValues ? acrValues.split(' ').filter(Boolean) : usable.map((provider) => provider.openId.ciba?.acr);
  for (const acr of requested) {
    const provider = usable.find((candidate) => candidate.openId.ciba?.acr === acr);
    if (provider?.openId.ciba)
      return { acr: provider.openId.ciba.acr, provider: provider.name, channel: provider.openId.ciba.channel, operation };
  }
  return undefined;
}

/** The binding message's problem, if any: at most MAX_BINDING_MESSAGE characters, and present for a signature. */
export function bindingMessageProblem(bindingMessage: unknown, scope: unknown): string | undefined {
  const signing = typeof scope === 'string' && scope.split(' ').includes(SCOPE.sign);
  if (bindingMessage === undefined || bindingMessage === '')
    return signing ? 'binding_message is the text to sign and is required with the sign scope' : undefined;
  if (typeof bindingMessage !== 'string') return 'binding_message must be a string';
  if ([...bindingMessage].length > MAX_BINDING_MESSAGE) return `binding_message must be at most ${MAX_BINDING_MESSAGE} characters`;
  return undefined;
}

/** The request's lifetime in seconds: requested_expiry, capped by the session's own lifetime. */
export function cibaExpirySeconds(requestedExpiry: unknown, limitSeconds: number): number {
  const requested = Number(requestedExpiry);
  return Number.isSafeInteger(requested) && requested > 0 ? Math.min(requested, limitSeconds) : limitSeconds;
}
