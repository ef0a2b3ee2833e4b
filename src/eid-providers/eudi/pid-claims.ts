import type { IdentifiedUser } from '../eid-provider.js';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const COUNTRY = /^[A-Z]{2}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The person from a PID's disclosed claims (the PID rulebook's names; docs/eudi-wallet.md, "The
 * person"): the country is the one that issued the PID, which is the one that issued its personal
 * administrative number; else the first nationality. Null when the PID names nobody.
 */
export function userFromPid(claims: Record<string, unknown>): IdentifiedUser | null {
  const givenName = text(claims.given_name);
  const surname = text(claims.family_name);
  if (!givenName || !surname) return null;
  const nationalities = Array.isArray(claims.nationalities) ? claims.nationalities.map(text) : [];
  const country = [text(claims.issuing_country), ...nationalities].find((c) => c !== undefined && COUNTRY.test(c));
  const birthdate = text(claims.birthdate);
  const nationalId = text(claims.personal_administrative_number);
  return {
    givenName,
    surname,
    name: `${givenName} ${surname}`,
    ...(birthdate && DATE.test(birthdate) ? { birthdate } : {}),
    ...(nationalId ? { nationalId } : {}),
    ...(country ? { country } : {}),
  };
}
