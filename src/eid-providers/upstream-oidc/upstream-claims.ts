import type { IdentifiedUser } from '../eid-provider.js';
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
  };
}
