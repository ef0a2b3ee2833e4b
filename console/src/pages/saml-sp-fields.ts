// The SAML service provider form's model: the API's view of an SP and the body the form sends (docs/saml.md).
import { lines } from './oidc-client-fields';

export const SAML_ATTRIBUTES = [
  'personalIdentityNumber',
  'givenName',
  'sn',
  'displayName',
  'dateOfBirth',
  'transactionIdentifier',
  'authServerSignature',
  'userSignature',
] as const;

export interface SamlSpView {
  id: string;
  environment: 'test' | 'live';
  name: string;
  entityId: string;
  acsUrls: string[];
  singleLogoutUrl: string | null;
  signingCertificate: string;
  encryptionCertificate: string | null;
  providers: string[] | null;
  attributes: string[];
  metadataUrl: string;
}

/** What the form edits, as text where the person types lists. */
export interface SamlSpFields {
  environment: 'test' | 'live';
  name: string;
  entityId: string;
  acsUrls: string;
  singleLogoutUrl: string;
  signingCertificate: string;
  encryptionCertificate: string;
  providers: string;
  attributes: string[];
}

export const NEW_SAML_SP: SamlSpFields = {
  environment: 'test',
  name: '',
  entityId: '',
  acsUrls: '',
  singleLogoutUrl: '',
  signingCertificate: '',
  encryptionCertificate: '',
  providers: '',
  attributes: [...SAML_ATTRIBUTES],
};

export const fieldsOf = (sp: SamlSpView): SamlSpFields => ({
  environment: sp.environment,
  name: sp.name,
  entityId: sp.entityId,
  acsUrls: sp.acsUrls.join('\n'),
  singleLogoutUrl: sp.singleLogoutUrl ?? '',
  signingCertificate: sp.signingCertificate,
  encryptionCertificate: sp.encryptionCertificate ?? '',
  providers: (sp.providers ?? []).join('\n'),
  attributes: sp.attributes,
});

/** The body the API takes: on creation with the environment and entityID, which never change after. */
export function samlSpBodyOf(fields: SamlSpFields, creating: boolean) {
  const providers = lines(fields.providers);
  return {
    name: fields.name,
    acsUrls: lines(fields.acsUrls),
    singleLogoutUrl: fields.singleLogoutUrl.trim() || null,
    signingCertificate: fields.signingCertificate.trim(),
    encryptionCertificate: fields.encryptionCertificate.trim() || null,
    providers: providers.length ? providers : null,
    attributes: SAML_ATTRIBUTES.filter((name) => fields.attributes.includes(name)),
    ...(creating ? { environment: fields.environment, entityId: fields.entityId.trim() } : {}),
  };
}
