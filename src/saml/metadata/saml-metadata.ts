import { ATTRNAME_URI, BINDING, ENTITY_CATEGORIES, NAMEID_PERSISTENT, SAML_NS } from '../saml-protocol.js';
import { certificateBody, ROOT_FIRST_CHILD, SHA256, signatureAlgorithmOf, signElement, type SigningKey } from '../saml-signer.js';
import { xmlEscape } from '../saml-xml-text.js';

export interface MetadataInput {
  entityId: string;
  ssoUrl: string;
  sloUrl: string;
  displayName: string;
  key: SigningKey;
}

const keyDescriptor = (use: 'signing' | 'encryption', certificate: string) =>
  `<md:KeyDescriptor use="${use}"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBody(certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;

/**
 * The IdP's EntityDescriptor (docs/saml.md, "Metadata"): the framework's entity categories, the
 * digest and signature method it signs with (the key's), the UI info, one key for signing and for
 * what an SP encrypts to us, SSO and SLO over Redirect and POST; signed by that key.
 */
export function signedMetadata(input: MetadataInput): string {
  const { entityId, ssoUrl, sloUrl, key } = input;
  const name = xmlEscape(input.displayName);
  const endpoints = (element: string, url: string) =>
    [BINDING.redirect, BINDING.post].map((binding) => `<md:${element} Binding="${binding}" Location="${xmlEscape(url)}"/>`).join('');
  const xml =
    `<md:EntityDescriptor xmlns:md="${SAML_NS.metadata}" xmlns:ds="${SAML_NS.dsig}" xmlns:saml="${SAML_NS.assertion}" ` +
    `xmlns:mdattr="${SAML_NS.mdattr}" xmlns:alg="${SAML_NS.alg}" xmlns:mdui="${SAML_NS.mdui}" ID="_metadata" entityID="${xmlEscape(entityId)}">` +
    `<md:Extensions><mdattr:EntityAttributes>` +
    `<saml:Attribute Name="http://macedir.org/entity-category" NameFormat="${ATTRNAME_URI}">` +
    ENTITY_CATEGORIES.map((category) => `<saml:AttributeValue>${category}</saml:AttributeValue>`).join('') +
    `</saml:Attribute></mdattr:EntityAttributes>` +
    `<alg:DigestMethod Algorithm="${SHA256}"/><alg:SigningMethod Algorithm="${signatureAlgorithmOf(key)}"/></md:Extensions>` +
    `<md:IDPSSODescriptor WantAuthnRequestsSigned="true" protocolSupportEnumeration="${SAML_NS.protocol}">` +
    `<md:Extensions><mdui:UIInfo>` +
    `<mdui:DisplayName xml:lang="sv">${name}</mdui:DisplayName><mdui:DisplayName xml:lang="en">${name}</mdui:DisplayName>` +
    `<mdui:Description xml:lang="sv">Legitimering med e-legitimation</mdui:Description>` +
    `<mdui:Description xml:lang="en">Identification with a Swedish e-ID</mdui:Description>` +
    `</mdui:UIInfo></md:Extensions>` +
    keyDescriptor('signing', key.certificate) +
    keyDescriptor('encryption', key.certificate) +
    endpoints('SingleLogoutService', sloUrl) +
    `<md:NameIDFormat>${NAMEID_PERSISTENT}</md:NameIDFormat>` +
    endpoints('SingleSignOnService', ssoUrl) +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`;
  return signElement(xml, key, ROOT_FIRST_CHILD);
}
