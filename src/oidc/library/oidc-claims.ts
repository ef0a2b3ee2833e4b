import { createHmac } from 'node:crypto';
import type { IdentifiedUser } from '../../eid-providers/eid-provider.js';
import { AGE_THRESHOLDS, type AgeThreshold, type AgeVerification } from '../../sessions/session-age.js';

export const SCOPE = {
  naturalPersonNumber: 'https://id.oidc.se/scope/naturalPersonNumber',
  naturalPersonInfo: 'https://id.oidc.se/scope/naturalPersonInfo',
  naturalPersonOrgId: 'https://id.oidc.se/scope/naturalPersonOrgId',
  business: 'eidgw:business',
  sign: 'https://id.oidc.se/scope/sign',
  result: 'eidgw:result',
} as const;

export const CLAIM = {
  personalIdentityNumber: 'https://id.oidc.se/claim/personalIdentityNumber',
  userSignature: 'https://id.oidc.se/claim/userSignature',
  orgNumber: 'https://id.oidc.se/claim/orgNumber',
  orgName: 'https://id.oidc.se/claim/orgName',
  orgAffiliation: 'https://id.oidc.se/claim/orgAffiliation',
} as const;

const PERSON_INFO = ['name', 'given_name', 'family_name', 'birthdate'];

/** Age only (docs/age-verification.md): the acr, the scopes `is_over_N` and the claims, Idura's names beside ours. */
export const AGE_ACR = 'urn:age-verification';
export const AGE_CLAIM = 'age_verification';
export const IDURA_AGE_CLAIM = 'http://ageverification.criipto.com';
export const ageScopeOf = (age: AgeThreshold) => `is_over_${age}`;
export const AGE_SCOPES: readonly string[] = AGE_THRESHOLDS.map(ageScopeOf);

/**
 * Which claims each scope releases (docs/oidc.md, "Claims"); the personal number claim names are added
 * per deployment, and the business claims the upstreams deliver (docs/upstream-oidc.md, "Business identities").
 */
export function scopeClaims(personalNumberClaims: readonly string[], businessClaims: readonly string[] = []): Record<string, string[]> {
  return {
    // acr, amr and auth_time come from the login itself, into the id token only (docs/oidc.md, "Claims");
    // country is the issuing country of an e-ID of another country (an upstream's, docs/upstream-oidc.md).
    openid: ['sub', 'acr', 'amr', 'auth_time', 'country'],
    profile: PERSON_INFO,
    [SCOPE.naturalPersonInfo]: PERSON_INFO,
    [SCOPE.naturalPersonNumber]: [...new Set([CLAIM.personalIdentityNumber, ...personalNumberClaims, 'nin', 'nin_issuing_country'])],
    // The OIDC Sweden profile's person of an organisation, where an upstream delivers the organisation.
    [SCOPE.naturalPersonOrgId]: [
      ...PERSON_INFO.filter((claim) => claim !== 'birthdate'),
      CLAIM.orgAffiliation,
      CLAIM.orgName,
      CLAIM.orgNumber,
    ],
    [SCOPE.business]: [...new Set(businessClaims)],
    [SCOPE.result]: ['eidgw_result', 'txn'],
    ...Object.fromEntries(AGE_SCOPES.map((scope) => [scope, [AGE_CLAIM, IDURA_AGE_CLAIM]])),
    [SCOPE.sign]: [CLAIM.userSignature],
  };
}

/**
 * What one e-ID login proved, kept for the claims of its tokens (docs/oidc.md, "State"): the person,
 * or an age login's answer alone (docs/age-verification.md).
 */
export type OidcAccount = PersonAccount | AgeAccount;

interface AccountBase {
  clientId: string;
  txn: string;
  resultToken?: string;
  userSignature?: string;
}

export interface PersonAccount extends AccountBase {
  /** The stable, opaque person identifier: never the personal number itself. */
  subject: string;
  user: IdentifiedUser;
}

export interface AgeAccount extends AccountBase {
  /** Random for each login: two age logins of one person cannot be linked. */
  subject: string;
  ageVerification: AgeVerification;
}

export const isAgeAccount = (account: OidcAccount): account is AgeAccount => 'ageVerification' in account;

/** Every claim the account can give; the provider releases those the granted scopes and claims ask for. */
export function accountClaims(account: OidcAccount, personalNumberClaim: string | null): Record<string, unknown> {
  if (isAgeAccount(account)) return ageAccountClaims(account);
  const { user } = account;
  // The OIDC Sweden claim is for a Swedish number only; another country's goes under nin (docs/oidc.md, "Claims").
  const swedishNumber = user.personalNumber ?? (user.country === 'SE' ? user.nationalId : undefined);
  const otherNin = swedishNumber ? undefined : user.nationalId;
  return {
    // First: a business claim never takes the place of one the service issues (their names are refused anyway).
    ...user.business,
    sub: account.subject,
    name: user.name,
    given_name: user.givenName,
    family_name: user.surname,
    birthdate: user.birthdate ?? (swedishNumber ? birthdateOf(swedishNumber) : undefined),
    ...(user.country ? { country: user.country } : {}),
    ...(otherNin ? { nin: otherNin, nin_issuing_country: user.country } : {}),
    ...(swedishNumber ? { [CLAIM.personalIdentityNumber]: swedishNumber } : {}),
    ...(personalNumberClaim && swedishNumber ? { [personalNumberClaim]: swedishNumber } : {}),
    txn: account.txn,
    ...(account.resultToken ? { eidgw_result: account.resultToken } : {}),
    ...(account.userSignature ? { [CLAIM.userSignature]: account.userSignature } : {}),
  };
}

/**
 * An age login's claims (docs/age-verification.md, "Claims"): ours, and Idura's `{country, is_over_N}`
 * so that a client written for Idura changes only its issuer. Idura's claim has no `null`: an unknown
 * age leaves `is_over_N` out, which a client reading `=== true` takes as not old enough.
 */
function ageAccountClaims(account: AgeAccount): Record<string, unknown> {
  const { ageVerification: answer } = account;
  return {
    sub: account.subject,
    [AGE_CLAIM]: answer,
    [IDURA_AGE_CLAIM]: {
      ...(answer.country ? { country: answer.country } : {}),
      ...(answer.result === null ? {} : { [ageScopeOf(answer.ageOver)]: answer.result }),
    },
    txn: account.txn,
    ...(account.resultToken ? { eidgw_result: account.resultToken } : {}),
  };
}

/** YYYY-MM-DD from a 12-digit personal number; a coordination number's day has 60 added (Skatteverket). */
export function birthdateOf(personalNumber: string): string | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})\d{4}$/.exec(personalNumber);
  if (!match) return undefined;
  const day = Number(match[3]) > 60 ? Number(match[3]) - 60 : Number(match[3]);
  return `${match[1]}-${match[2]}-${String(day).padStart(2, '0')}`;
}

/** The name of the derived key personSubject and pairwiseSubject use (the SAML front uses it too, docs/saml.md). */
export const PERSON_SUBJECT_KEY = 'oidc-subject';

/** The person's identifier in an environment: an HMAC of the personal number, stable across providers. */
export function personSubject(key: Buffer, environment: string, personalNumber: string): string {
  return createHmac('sha256', key).update(`person\0${environment}\0${personalNumber}`).digest('base64url');
}

/** What personSubject hashes: the personal number, or another country's national identifier with its country. */
export function personKeyOf(user: IdentifiedUser): string {
  return user.personalNumber ?? `${user.country}\0${user.nationalId}`;
}

/** A pairwise `sub`: the same person gets the same value at one client, unrelated values at two. */
export function pairwiseSubject(key: Buffer, clientId: string, subject: string): string {
  return createHmac('sha256', key).update(`pairwise\0${clientId}\0${subject}`).digest('base64url');
}
