import type { BusinessClaimValue, IdentifiedUser } from '../eid-provider.js';
import type { UpstreamConfig } from './upstream-oidc.env.js';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The person from the id token's claims by the upstream's claim names (docs/upstream-oidc.md);
 * OpenID Connect's standard names where none is configured. Null when it names nobody.
 */
export function userFromClaims(claims: Record<string, unknown>, upstream: UpstreamConfig): IdentifiedUser | null {
  const names = upstream.claims;
  const givenName = text(claims[names.givenName ?? 'given_name']) ?? '';
  const surname = text(claims[names.surname ?? 'family_name']) ?? '';
  const name = text(claims[names.name ?? 'name']) ?? [givenName, surname].filter(Boolean).join(' ');
  const personalNumber = names.personalNumber ? text(claims[names.personalNumber]) : undefined;
  const nationalId = names.nationalId ? text(claims[names.nationalId]) : undefined;
  const birthdate = text(claims[names.birthdate ?? 'birthdate']);
  if (!personalNumber && !nationalId && !name) return null;
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
