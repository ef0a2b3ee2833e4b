import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';

/**
 * The attributes the front can release, by the names of the BankID profile of the Swedish eID
 * Framework (docs/saml.md, "Attributes"); a service provider releases those it lists.
 */
export const SAML_ATTRIBUTE_NAMES = [
  'personalIdentityNumber',
  'givenName',
  'sn',
  'displayName',
  'dateOfBirth',
  'transactionIdentifier',
  'authServerSignature',
  'userSignature',
] as const;
export type SamlAttributeName = (typeof SAML_ATTRIBUTE_NAMES)[number];

/** One row of saml_service_providers: a SAML relying party of a team in one environment (docs/saml.md). */
export interface SamlServiceProvider {
  id: string;
  teamId: string;
  environment: ApiKeyEnvironment;
  name: string;
  entityId: string;
  /** Compared exactly with an AuthnRequest's AssertionConsumerServiceURL; the first is the default. */
  acsUrls: string[];
  /** Where a LogoutResponse goes (HTTP-POST); null: SLO answers with a page. */
  singleLogoutUrl: string | null;
  /** PEM: verifies the SP's AuthnRequests and LogoutRequests. */
  signingCertificate: string;
  /** PEM: when present, assertions to the SP are encrypted to it. */
  encryptionCertificate: string | null;
  /** Null: every provider the environment offers the SAML front. */
  providers: string[] | null;
  attributes: SamlAttributeName[];
  createdAt: Date;
  updatedAt: Date;
}
