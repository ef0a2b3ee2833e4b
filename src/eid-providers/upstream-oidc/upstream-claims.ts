import type { BusinessClaimValue, IdentifiedUser } from '../eid-provider.js';
import type { UpstreamConfig } from './upstream-oidc.env.js';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The person from the id token's claims by the upstream's claim names (docs/upstream-oidc.md);
 * OpenID Connect's standard names where none is configured. Null without a personal number or a
 * national identifier: a name is nobody's identity (two people share one, and the session's subject
 * is made from the identifier).
 */
export function userFromClaims(claims: Record<string, unknown>, upstream: UpstreamConfig): IdentifiedUser | null {
  const names = upstream.claims;
  const givenName = text(claims[names.givenName ?? 'given_name']) ?? '';
  const surname = text(claims[names.surname ?? 'family_name']) ?? '';
  const name = text(claims[names.name ?? 'name']) ?? [givenName, surname].filter(Boolean).join(' ');
  const personalNumber = names.personalNumber ? text(claims[names.personalNumber]) : undefined;
  const nationalId = names.nationalId ? text(claims[names.nationalId]) : undefined;
  const birthdate = text(claims[names.birthdate ?? 'birthdate']);
  if (!personalNumber && !nationalId) return null;
  return {
    ...(personalNumber ? { personalNumber } : {}),
    ...(nationalId ? { nationalId } : {}),
    name,
    givenName,
    surname,
    ...(birthdate ? { birthdate } : {}),
    country: upstream.country,
    ...businessOf(claims, upstream),
  };
}

/**
 * Whether the id token's `acr` is one the gateway asked for (docs/upstream-oidc.md): an upstream may
 * answer a weaker method than `acr_values` named (OpenID Connect Core 3.1.2.1 makes them voluntary).
 * Any acr passes when none is configured.
 */
export function acrAsAsked(claims: Record<string, unknown>, upstream: UpstreamConfig): boolean {
  if (!upstream.acrValues) return true;
  return typeof claims.acr === 'string' && upstream.acrValues.split(' ').includes(claims.acr);
}

// A business claim's value as the upstream gives it, when it is a plain value of sensible size.
const MAX_BUSINESS_TEXT = 500;
const businessValue = (value: unknown): BusinessClaimValue | undefined =>
  typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
    ? value
    : typeof value === 'string' && value !== '' && value.length <= MAX_BUSINESS_TEXT
      ? value
      : undefined;

/** The business identity under the front's names, from the upstream's (docs/upstream-oidc.md, "Business identities"). */
function businessOf(claims: Record<string, unknown>, upstream: UpstreamConfig): Pick<IdentifiedUser, 'business'> {
  const pairs = Object.entries(upstream.businessClaims ?? {}).flatMap(([front, theirs]) => {
    const value = businessValue(claims[theirs]);
    return value === undefined ? [] : [[front, value] as const];
  });
  return pairs.length ? { business: Object.fromEntries(pairs) } : {};
}
