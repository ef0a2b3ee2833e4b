import { randomBytes } from 'node:crypto';
import { ATTRNAME_URI, NAMEID_PERSISTENT, RESPONSE_VALIDITY_MS, SAML_NS, STATUS } from '../saml-protocol.js';
import { AFTER_ASSERTION_ISSUER, AFTER_ROOT_ISSUER, signElement, type SigningKey } from '../saml-signer.js';
import { samlify, type SamlifyIdentityProvider } from '../samlify.js';
import { xmlEscape } from '../saml-xml-text.js';
import type { SamlServiceProvider } from '../service-providers/saml-service-provider.js';
import type { ReleasedAttribute } from './saml-attributes.js';

/** A SAML ID: an NCName, so it starts with a letter or underscore. */
export const newSamlId = (): string => `_${randomBytes(20).toString('hex')}`;

export interface Issuing {
  issuer: string;
  key: SigningKey;
  now: Date;
}

export interface SuccessInput extends Issuing {
  /** samlify's IdP entity of the front (SamlIdentity.entity), encrypting when the SP has an encryption certificate. */
  idp: SamlifyIdentityProvider;
  sp: SamlServiceProvider;
  inResponseTo: string;
  acsUrl: string;
  nameId: string;
  authnContext: string;
  authnInstant: Date;
  attributes: ReleasedAttribute[];
}

const responseOpen = (id: string, issuing: Issuing, destination: string, inResponseTo: string | undefined) =>
  `<samlp:Response xmlns:samlp="${SAML_NS.protocol}" xmlns:saml="${SAML_NS.assertion}" ID="${id}" Version="2.0" ` +
  `IssueInstant="${issuing.now.toISOString()}" Destination="${xmlEscape(destination)}"` +
  (inResponseTo ? ` InResponseTo="${xmlEscape(inResponseTo)}"` : '') +
  `><saml:Issuer>${xmlEscape(issuing.issuer)}</saml:Issuer>`;

/**
 * A login's Response (docs/saml.md, "The Response"): the assertion signed, then encrypted when the SP
 * has an encryption certificate (by samlify), then the whole Response signed; both signatures by
 * xml-crypto with the key's algorithm. Answers base64.
 */
export async function successResponse(input: SuccessInput): Promise<string> {
  const { sp, now } = input;
  const until = new Date(now.getTime() + RESPONSE_VALIDITY_MS).toISOString();
  const sp_ = xmlEscape(sp.entityId);
  const id = newSamlId();
  const assertion =
    `<saml:Assertion xmlns:saml="${SAML_NS.assertion}" xmlns:xs="http://www.w3.org/2001/XMLSchema" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ID="${newSamlId()}" Version="2.0" IssueInstant="${now.toISOString()}">` +
    `<saml:Issuer>${xmlEscape(input.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${NAMEID_PERSISTENT}" NameQualifier="${xmlEscape(input.issuer)}" SPNameQualifier="${sp_}">` +
    `${xmlEscape(input.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData NotOnOrAfter="${until}" Recipient="${xmlEscape(input.acsUrl)}" InResponseTo="${xmlEscape(input.inResponseTo)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${now.toISOString()}" NotOnOrAfter="${until}">` +
    `<saml:AudienceRestriction><saml:Audience>${sp_}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${input.authnInstant.toISOString()}" SessionIndex="${newSamlId()}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>${xmlEscape(input.authnContext)}</saml:AuthnContextClassRef></saml:AuthnContext>` +
    `</saml:AuthnStatement>` +
    (input.attributes.length
      ? `<saml:AttributeStatement>${input.attributes
          .map(
            (a) =>
              `<saml:Attribute Name="${a.oid}" NameFormat="${ATTRNAME_URI}" FriendlyName="${a.name}">` +
              `<saml:AttributeValue xsi:type="xs:string">${xmlEscape(a.value)}</saml:AttributeValue></saml:Attribute>`,
          )
          .join('')}</saml:AttributeStatement>`
      : '') +
    `</saml:Assertion>`;
  const xml =
    responseOpen(id, input, input.acsUrl, input.inResponseTo) +
    `<samlp:Status><samlp:StatusCode Value="${STATUS.success}"/></samlp:Status>${assertion}</samlp:Response>`;

  const signed = signElement(xml, input.key, AFTER_ASSERTION_ISSUER);
  const sealed = sp.encryptionCertificate ? decodeBase64(await encryptAssertion(input, sp.encryptionCertificate, signed)) : signed;
  return Buffer.from(signElement(sealed, input.key, AFTER_ROOT_ISSUER), 'utf8').toString('base64');
}

const decodeBase64 = (value: string): string => Buffer.from(value, 'base64').toString('utf8');

/** samlify's XML Encryption of the signed assertion to the SP's encryption certificate; base64 of the Response. */
function encryptAssertion(input: SuccessInput, encryptionCertificate: string, xml: string): Promise<string> {
  const spEntity = samlify().ServiceProvider({ entityID: input.sp.entityId, encryptCert: encryptionCertificate });
  return samlify().SamlLib.encryptAssertion(input.idp, spEntity, xml);
}

export interface StatusInput extends Issuing {
  destination: string;
  inResponseTo?: string;
  /** The top-level code, and the second-level one that says more. */
  status: string;
  subStatus?: string;
  message?: string;
}

/** A Response without an assertion (an error, the user's cancel), signed; base64. */
export function statusResponse(input: StatusInput): string {
  const second = input.subStatus ? `<samlp:StatusCode Value="${xmlEscape(input.subStatus)}"/>` : '';
  const xml =
    responseOpen(newSamlId(), input, input.destination, input.inResponseTo) +
    `<samlp:Status><samlp:StatusCode Value="${input.status}">${second}</samlp:StatusCode>` +
    (input.message ? `<samlp:StatusMessage>${xmlEscape(input.message)}</samlp:StatusMessage>` : '') +
    `</samlp:Status></samlp:Response>`;
  return Buffer.from(signElement(xml, input.key, AFTER_ROOT_ISSUER), 'utf8').toString('base64');
}

/** The answer to a LogoutRequest (docs/saml.md, "Logout"): we keep no SSO session, so there is nothing else to end. */
export function logoutResponse(input: Issuing & { destination: string; inResponseTo: string; status: string }): string {
  const xml =
    `<samlp:LogoutResponse xmlns:samlp="${SAML_NS.protocol}" xmlns:saml="${SAML_NS.assertion}" ID="${newSamlId()}" Version="2.0" ` +
    `IssueInstant="${input.now.toISOString()}" Destination="${xmlEscape(input.destination)}" InResponseTo="${xmlEscape(input.inResponseTo)}">` +
    `<saml:Issuer>${xmlEscape(input.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${input.status}"/></samlp:Status></samlp:LogoutResponse>`;
  return Buffer.from(signElement(xml, input.key, AFTER_ROOT_ISSUER), 'utf8').toString('base64');
}
