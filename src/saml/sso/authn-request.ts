import type { Document, Element } from '@xmldom/xmldom';
import { PERSONAL_IDENTITY_NUMBER_OID, SAML_NS } from '../saml-protocol.js';
import { SamlXmlError } from '../saml-xml.js';

/** A text the e-ID app shows: the framework's User Message, or a signature service's SignMessage. */
export interface AppText {
  text: string;
  format: 'plaintext' | 'simpleMarkdownV1';
}

/** What an AuthnRequest asks, read from a guarded parse (docs/saml.md, "AuthnRequest"). */
export interface AuthnRequestFacts {
  id: string;
  issuer: string;
  destination?: string;
  issueInstant?: string;
  acsUrl?: string;
  protocolBinding?: string;
  /** RequestedAuthnContext's class refs (exact comparison), in the SP's order of preference. */
  authnContexts: string[];
  /** The Reference URIs of the root's own enveloped signature (HTTP-POST): it must sign the root itself. */
  signedReferences: string[];
}

/** The Swedish eID Framework's extensions of an AuthnRequest, read once its signature and SP are known. */
export interface RequestExtensions {
  /** psc:PrincipalSelection's personalIdentityNumber. */
  personalNumber?: string;
  userMessage?: AppText;
  signMessage?: AppText;
}

const children = (parent: Element | Document, ns: string, name: string): Element[] => Array.from(parent.getElementsByTagNameNS(ns, name));
const text = (element: Element | undefined): string | undefined => element?.textContent?.trim() || undefined;
const attribute = (element: Element, name: string): string | undefined => element.getAttribute(name) || undefined;

// The framework's User Message and SignMessage speak MIME types; the e-ID app speaks plain text or its markdown.
const formatOf = (mimeType: string | undefined): AppText['format'] | null =>
  mimeType === undefined || mimeType === 'text' || mimeType === 'text/plain'
    ? 'plaintext'
    : mimeType === 'text/markdown'
      ? 'simpleMarkdownV1'
      : null;

const decodeBase64Text = (value: string | undefined, what: string): string => {
  const decoded = value ? Buffer.from(value, 'base64').toString('utf8') : '';
  if (!decoded.trim()) throw new SamlXmlError(`${what} is empty or not base64`);
  return decoded;
};

export function readAuthnRequest(document: Document): AuthnRequestFacts {
  const root = document.documentElement;
  if (!root || root.namespaceURI !== SAML_NS.protocol || root.localName !== 'AuthnRequest')
    throw new SamlXmlError('The SAML message is not an AuthnRequest');
  const id = attribute(root, 'ID');
  const issuer = text(children(root, SAML_NS.assertion, 'Issuer').find((element) => element.parentNode === root));
  if (!id || !issuer) throw new SamlXmlError('The AuthnRequest has no ID or no Issuer');
  const requested = children(root, SAML_NS.protocol, 'RequestedAuthnContext')[0];
  return {
    id,
    issuer,
    destination: attribute(root, 'Destination'),
    issueInstant: attribute(root, 'IssueInstant'),
    acsUrl: attribute(root, 'AssertionConsumerServiceURL'),
    protocolBinding: attribute(root, 'ProtocolBinding'),
    authnContexts: requested ? children(requested, SAML_NS.assertion, 'AuthnContextClassRef').flatMap((e) => text(e) ?? []) : [],
    signedReferences: children(root, SAML_NS.dsig, 'Signature')
      .filter((signature) => signature.parentNode === root)
      .flatMap((signature) => children(signature, SAML_NS.dsig, 'Reference').map((reference) => reference.getAttribute('URI') ?? '')),
  };
}

export function readRequestExtensions(document: Document): RequestExtensions {
  const root = document.documentElement;
  const extensions = root ? children(root, SAML_NS.protocol, 'Extensions').find((element) => element.parentNode === root) : undefined;
  if (!extensions) return {};
  const match = children(extensions, SAML_NS.principalSelection, 'MatchValue').find(
    (element) => element.getAttribute('Name') === PERSONAL_IDENTITY_NUMBER_OID,
  );
  return {
    personalNumber: text(match),
    userMessage: readUserMessage(extensions),
    signMessage: readSignMessage(extensions),
  };
}

/** umsg:UserMessage: one base64 Message per xml:lang; Swedish first, then English, then the first given. */
function readUserMessage(extensions: Element): AppText | undefined {
  const message = children(extensions, SAML_NS.userMessage, 'UserMessage')[0];
  if (!message) return undefined;
  const format = formatOf(attribute(message, 'MimeType'));
  if (!format) throw new SamlXmlError('The UserMessage has a MimeType other than text/plain or text/markdown');
  const texts = children(message, SAML_NS.userMessage, 'Message');
  const language = (element: Element) => element.getAttributeNS('http://www.w3.org/XML/1998/namespace', 'lang');
  const chosen = texts.find((e) => language(e) === 'sv') ?? texts.find((e) => language(e) === 'en') ?? texts[0];
  return { text: decodeBase64Text(text(chosen), 'The UserMessage'), format };
}

/** csig:SignMessage of a signature service: its Message in the clear (an EncryptedMessage is not supported). */
function readSignMessage(extensions: Element): AppText | undefined {
  const sign = children(extensions, SAML_NS.signMessage, 'SignMessage')[0];
  if (!sign) return undefined;
  const format = formatOf(attribute(sign, 'MimeType'));
  if (!format) throw new SamlXmlError('The SignMessage has a MimeType other than text or text/markdown');
  const message = children(sign, SAML_NS.signMessage, 'Message')[0];
  if (!message) throw new SamlXmlError('The SignMessage has no Message in the clear');
  return { text: decodeBase64Text(text(message), 'The SignMessage'), format };
}
