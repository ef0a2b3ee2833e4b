import type { IdentifiedUser } from '../../eid-providers/eid-provider.js';
import { birthdateOf } from '../../oidc/library/oidc-claims.js';
import { PERSONAL_IDENTITY_NUMBER_OID } from '../saml-protocol.js';
import type { SamlAttributeName } from '../service-providers/saml-service-provider.js';

/** The BankID profile of the Swedish eID Framework: each attribute's OID (docs/saml.md, "Attributes"). */
export const ATTRIBUTE_OIDS: Record<SamlAttributeName, string> = {
  personalIdentityNumber: PERSONAL_IDENTITY_NUMBER_OID,
  givenName: 'urn:oid:2.5.4.42',
  sn: 'urn:oid:2.5.4.4',
  displayName: 'urn:oid:2.16.840.1.113730.3.1.241',
  dateOfBirth: 'urn:oid:1.3.6.1.5.5.7.9.1',
  transactionIdentifier: 'urn:oid:1.2.752.201.3.2',
  authServerSignature: 'urn:oid:1.2.752.201.3.13',
  userSignature: 'urn:oid:1.2.752.201.3.11',
};

export interface ReleasedAttribute {
  name: SamlAttributeName;
  oid: string;
  value: string;
}

export interface LoginFacts {
  user: IdentifiedUser;
  sessionId: string;
  /** The session's evidence as kept (docs/evidence.md): BankID's OCSP response and the user's signature. */
  evidence?: Readonly<Record<string, unknown>>;
  operation: 'auth' | 'sign';
}

/** The values of a completed login, those the SP releases, in the table's order; an empty value is left out. */
export function releasedAttributes(facts: LoginFacts, released: readonly SamlAttributeName[]): ReleasedAttribute[] {
  const { user, evidence } = facts;
  // The personal identity number is Swedish; another country's identifier has no attribute of this profile.
  const personalNumber = user.personalNumber ?? (user.country === 'SE' ? user.nationalId : undefined);
  const stringOf = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  const values: Record<SamlAttributeName, string | undefined> = {
    personalIdentityNumber: personalNumber,
    givenName: user.givenName || undefined,
    sn: user.surname || undefined,
    displayName: user.name || undefined,
    dateOfBirth: user.birthdate ?? (personalNumber ? birthdateOf(personalNumber) : undefined),
    transactionIdentifier: facts.sessionId,
    authServerSignature: stringOf(evidence?.ocspResponse),
    userSignature: facts.operation === 'sign' ? stringOf(evidence?.signature) : undefined,
  };
  return (Object.keys(ATTRIBUTE_OIDS) as SamlAttributeName[]).flatMap((name) => {
    const value = values[name];
    return released.includes(name) && value ? [{ name, oid: ATTRIBUTE_OIDS[name], value }] : [];
  });
}
