import { createHash, X509Certificate } from 'node:crypto';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { XMLDSIG_NS } from './bankid-signature-xml.js';

export const XADES_NS = 'http://uri.etsi.org/01903/v1.3.2#';
export const XADES_SIGNED_PROPERTIES_TYPE = 'http://uri.etsi.org/01903#SignedProperties';
const DIGESTS: Record<string, string> = {
  'http://www.w3.org/2001/04/xmlenc#sha256': 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384': 'sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512': 'sha512',
};

export interface XadesCheck {
  /** The XML-DSig verifies with its first KeyInfo certificate, and its signed properties name that certificate. */
  valid: boolean;
  /** The KeyInfo certificates (DER), the signer's first; empty when the document does not parse. */
  certificates: Buffer[];
  /** The texts of the signed content's elements by local name, read from the signed references only; absent when not valid. */
  signedContent?: ReadonlyMap<string, string>;
}

const NOT_VALID: XadesCheck = { valid: false, certificates: [] };

/**
 * Checks an enveloping XAdES Baseline B-B signature (ETSI TS 103 171; docs/idcard.md): the XML-DSig
 * and every reference verify (xml-crypto), one reference of type SignedProperties covers the
 * qualifying properties, whose SigningCertificateV2 digest is that of the KeyInfo's signer, and
 * another covers the signed content. Never throws.
 */
export function checkXades(signatureBase64: string): XadesCheck {
  let xml: string;
  let root: Element | null;
  try {
    xml = Buffer.from(signatureBase64, 'base64').toString('utf8');
    root = new DOMParser({ onError: () => undefined }).parseFromString(xml, 'text/xml').documentElement;
  } catch {
    return NOT_VALID;
  }
  if (!root || root.localName !== 'Signature' || root.namespaceURI !== XMLDSIG_NS) return NOT_VALID;
  const keyInfo = Array.from(root.childNodes).find((n): n is Element => n.nodeType === 1 && (n as Element).localName === 'KeyInfo');
  const certificates = keyInfo
    ? Array.from(keyInfo.getElementsByTagNameNS(XMLDSIG_NS, 'X509Certificate'), (node) =>
        Buffer.from((node.textContent ?? '').replace(/\s+/g, ''), 'base64'),
      )
    : [];
  if (certificates.length === 0) return NOT_VALID;
  try {
    const signed = new SignedXml({ publicCert: new X509Certificate(certificates[0]).toString(), getCertFromKeyInfo: () => null });
    signed.loadSignature(root);
    if (!signed.checkSignature(xml)) return { valid: false, certificates };
    // Each reference's Type, from SignedInfo (which the signature covers): xml-crypto does not load it.
    const signedInfo = Array.from(root.childNodes).find((n): n is Element => n.nodeType === 1 && (n as Element).localName === 'SignedInfo');
    const typeByUri = new Map(
      Array.from(signedInfo?.getElementsByTagNameNS(XMLDSIG_NS, 'Reference') ?? [], (r) => [
        r.getAttribute('URI') ?? '',
        r.getAttribute('Type'),
      ]),
    );
    const isProperties = (uri: string) => typeByUri.get(uri) === XADES_SIGNED_PROPERTIES_TYPE;
    const references = signed.getReferences();
    const properties = references.filter((r) => isProperties(r.uri)).map((r) => parse(r.signedReference));
    const contents = references.filter((r) => !isProperties(r.uri)).map((r) => parse(r.signedReference));
    const [signedProperties] = properties;
    const [content] = contents;
    const bound =
      properties.length === 1 &&
      contents.length === 1 &&
      signedProperties?.localName === 'SignedProperties' &&
      signedProperties.namespaceURI === XADES_NS &&
      namesSigner(signedProperties, certificates[0]);
    if (!bound || !content) return { valid: false, certificates };
    return { valid: true, certificates, signedContent: textsOf(content) };
  } catch {
    return { valid: false, certificates };
  }
}

function parse(referenceXml: string | undefined): Element | null {
  if (!referenceXml) return null;
  return new DOMParser({ onError: () => undefined }).parseFromString(referenceXml, 'text/xml').documentElement;
}

/** SigningCertificateV2 (or v1) names the signer by a digest of its DER (ETSI EN 319 132-1, 5.2.2). */
function namesSigner(signedProperties: Element, signer: Buffer): boolean {
  const certs = Array.from(signedProperties.getElementsByTagNameNS(XADES_NS, 'CertDigest'));
  return certs.some((certDigest) => {
    const method = certDigest.getElementsByTagNameNS(XMLDSIG_NS, 'DigestMethod')[0]?.getAttribute('Algorithm') ?? '';
    const value = certDigest.getElementsByTagNameNS(XMLDSIG_NS, 'DigestValue')[0]?.textContent?.replace(/\s+/g, '') ?? '';
    const algorithm = DIGESTS[method];
    return algorithm !== undefined && createHash(algorithm).update(signer).digest('base64') === value;
  });
}

/** Leaf elements' texts by local name (the first of each name). */
function textsOf(element: Element): Map<string, string> {
  const texts = new Map<string, string>();
  const walk = (node: Element) => {
    const children = Array.from(node.childNodes).filter((n): n is Element => n.nodeType === 1);
    const name = node.localName ?? '';
    if (children.length === 0 && !texts.has(name)) texts.set(name, (node.textContent ?? '').trim());
    children.forEach(walk);
  };
  walk(element);
  return texts;
}
