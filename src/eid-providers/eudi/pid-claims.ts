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
    ...ageAttestationOf(claims),
    ...(nationalId ? { nationalId } : {}),
    ...(country ? { country } : {}),
  };
}

const AGE_OVER_CLAIM = /^age_over_(\d{1,3})$/;
const AGE_KEY = /^\d{1,3}$/;

/**
 * The wallet's age statements (docs/age-verification.md, "Sources"): `age_over_NN` claims, and the
 * SD-JWT VC PID's `age_equal_or_over` object keyed by NN. Only booleans count.
 */
function ageAttestationOf(claims: Record<string, unknown>): { ageOver?: Record<string, boolean> } {
  const ageOver: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(claims)) {
    const match = AGE_OVER_CLAIM.exec(name);
    if (match && typeof value === 'boolean') ageOver[String(Number(match[1]))] = value;
  }
  const nested = claims.age_equal_or_over;
  if (typeof nested === 'object' && nested !== null && !Array.isArray(nested))
    for (const [age, value] of Object.entries(nested))
      if (AGE_KEY.test(age) && typeof value === 'boolean') ageOver[String(Number(age))] = value;
  return Object.keys(ageOver).length ? { ageOver } : {};
}
