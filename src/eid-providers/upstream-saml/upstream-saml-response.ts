import { createHash } from 'node:crypto';
import type { Document, Element } from '@xmldom/xmldom';
import { SAML_NS } from '../../saml/saml-protocol.js';
import { decodePostMessage, parseSamlXml, SamlXmlError } from '../../saml/saml-xml.js';
import type { SamlifyLoginResponse } from '../../saml/samlify.js';
import type { CompletedIdentity } from '../eid-provider.js';
import { userFromAttributes } from './upstream-saml-attributes.js';
import { CLOCK_SKEW_MS, type UpstreamSamlEntities } from './upstream-saml-entities.js';
import type { UpstreamSamlConfig } from './upstream-saml.env.js';

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/** A Response as it arrived, before any signature is checked: what finds its order, and its status. */
export interface ReceivedResponse {
  xml: string;
  inResponseTo: string | null;
  status: string | null;
  subStatus: string | null;
}

/** Why a Response gives no login (docs/saml.md, "Upstream SAML e-IDs"); each is logged by this code. */
export type SamlRefusal =
  | 'signature'
  | 'unencrypted_assertion'
  | 'assertion_count'
  | 'destination'
  | 'in_response_to'
  | 'audience'
  | 'expired'
  | 'recipient'
  | 'authn_context'
  | 'no_identity';

export type CheckedResponse = { ok: true; completion: CompletedIdentity } | { ok: false; refusal: SamlRefusal };

const first = (parent: Document | Element, ns: string, name: string): Element | null => parent.getElementsByTagNameNS(ns, name)[0] ?? null;

/** The guarded parse of the POSTed SAMLResponse (no DTD, a size cap) and its unsigned routing facts. */
export function receiveResponse(encoded: unknown): ReceivedResponse {
  if (typeof encoded !== 'string' || !encoded) throw new SamlXmlError('The request carries no SAMLResponse');
  const xml = decodePostMessage(encoded);
  const document = parseSamlXml(xml);
  const root = document.documentElement!;
  if (root.namespaceURI !== SAML_NS.protocol || root.localName !== 'Response') throw new SamlXmlError('The message is not a Response');
  const status = first(root, SAML_NS.protocol, 'StatusCode');
  const nested = status && first(status, SAML_NS.protocol, 'StatusCode');
  return {
    xml,
    inResponseTo: root.getAttribute('InResponseTo') || null,
    status: status?.getAttribute('Value') || null,
    subStatus: nested?.getAttribute('Value') || null,
  };
}

/** The hint code of a Response without Success: a configured cancel code is the person's own cancel. */
export const failedHintCode = (received: ReceivedResponse, upstream: UpstreamSamlConfig): string =>
  received.subStatus && upstream.cancelStatusCodes.includes(received.subStatus) ? 'userCancel' : 'providerError';

/**
 * The checks after samlify verified the signature by the IdP's metadata certificate (and decrypted
 * the assertion): one assertion, encrypted when configured; Destination and the bearer's Recipient
 * our ACS; InResponseTo the request's ID; the audience our entityID; NotOnOrAfter not passed; the
 * AuthnContextClassRef one asked for; a personal number or national identifier among the attributes.
 */
export function checkLoginResponse(
  received: ReceivedResponse,
  parsed: SamlifyLoginResponse,
  context: { upstream: UpstreamSamlConfig; entities: UpstreamSamlEntities; requestId: string; now: Date },
): CheckedResponse {
  const { upstream, entities, requestId, now } = context;
  const refuse = (refusal: SamlRefusal): CheckedResponse => ({ ok: false, refusal });
  const original = parseSamlXml(received.xml);
  const encrypted = original.getElementsByTagNameNS(SAML_NS.assertion, 'EncryptedAssertion').length;
  if (upstream.encryptedAssertions && encrypted !== 1) return refuse('unencrypted_assertion');
  // One assertion only: the one samlify verified is then the one read here (no signature wrapping).
  const document = parseSamlXml(parsed.samlContent);
  const assertions = document.getElementsByTagNameNS(SAML_NS.assertion, 'Assertion');
  if (assertions.length !== 1 || encrypted + original.getElementsByTagNameNS(SAML_NS.assertion, 'Assertion').length !== 1)
    return refuse('assertion_count');
  const assertion = assertions[0];
  const { response, audience, attributes } = parsed.extract;
  if (response?.destination !== entities.acsUrl) return refuse('destination');
  if (response?.inResponseTo !== requestId) return refuse('in_response_to');
  const audiences = Array.isArray(audience) ? audience : audience ? [audience] : [];
  if (!audiences.includes(entities.entityId)) return refuse('audience');
  const confirmation = first(assertion, SAML_NS.assertion, 'SubjectConfirmation');
  const data = confirmation && first(confirmation, SAML_NS.assertion, 'SubjectConfirmationData');
  if (!confirmation || confirmation.getAttribute('Method') !== BEARER || !data) return refuse('recipient');
  if (data.getAttribute('Recipient') !== entities.acsUrl) return refuse('recipient');
  if (data.getAttribute('InResponseTo') !== requestId) return refuse('in_response_to');
  const conditions = first(assertion, SAML_NS.assertion, 'Conditions');
  // A NotOnOrAfter present and not a time in the future (with the skew) has passed; an absent one on the conditions is no limit.
  const passed = (value: string | null | undefined) => Boolean(value) && !(Date.parse(value!) + CLOCK_SKEW_MS > now.getTime());
  if (!data.getAttribute('NotOnOrAfter') || passed(data.getAttribute('NotOnOrAfter')) || passed(conditions?.getAttribute('NotOnOrAfter')))
    return refuse('expired');
  const authnContext = first(assertion, SAML_NS.assertion, 'AuthnContextClassRef')?.textContent?.trim() ?? '';
  if (upstream.authnContexts && !upstream.authnContexts.includes(authnContext)) return refuse('authn_context');
  const user = userFromAttributes(attributes ?? {}, upstream);
  if (!user) return refuse('no_identity');
  const issuer = first(assertion, SAML_NS.assertion, 'Issuer')?.textContent?.trim() ?? '';
  return {
    ok: true,
    completion: {
      user,
      evidence: {
        issuer,
        authnContextClassRef: authnContext,
        assertionId: assertion.getAttribute('ID'),
        // The Response as verified: with an encrypted assertion, decrypted, so its signature can be checked again.
        responseSha256: createHash('sha256').update(parsed.samlContent, 'utf8').digest('hex'),
        response: parsed.samlContent,
      },
    },
  };
}
