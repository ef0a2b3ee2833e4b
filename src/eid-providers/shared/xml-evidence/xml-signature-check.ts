import { X509Certificate } from 'node:crypto';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { BANKID_SIGNATURE_NS, XMLDSIG_NS, type BankIdSignedData } from './bankid-signature-xml.js';

export interface XmlSignatureCheck {
  /** The XML-DSig verifies with the first certificate of its KeyInfo. */
  valid: boolean;
  /** The KeyInfo certificates (DER), the signer's first; empty when the document does not parse. */
  certificates: Buffer[];
  /** Read from the signed reference only, never from the unsigned document; absent when not valid. */
  signedData?: BankIdSignedData;
}

const NOT_VALID: XmlSignatureCheck = { valid: false, certificates: [] };

/** Checks BankID's completionData.signature (base64 XML, docs/evidence.md). Never throws. */
export function checkXmlSignature(signatureBase64: string): XmlSignatureCheck {
  let xml: string;
  let root: Element | null;
  try {
    xml = Buffer.from(signatureBase64, 'base64').toString('utf8');
    root = new DOMParser({ onError: () => undefined }).parseFromString(xml, 'text/xml').documentElement;
  } catch {
    return NOT_VALID;
  }
  if (!root || root.localName !== 'Signature' || root.namespaceURI !== XMLDSIG_NS) return NOT_VALID;
  const certificates = Array.from(root.getElementsByTagNameNS(XMLDSIG_NS, 'X509Certificate'), (node) =>
    Buffer.from((node.textContent ?? '').replace(/\s+/g, ''), 'base64'),
  );
  if (certificates.length === 0) return NOT_VALID;
  try {
    const signed = new SignedXml({ publicCert: new X509Certificate(certificates[0]).toString(), getCertFromKeyInfo: () => null });
    signed.loadSignature(root);
    if (!signed.checkSignature(xml)) return { valid: false, certificates };
    const signedData = signed
      .getSignedReferences()
      .map(readSignedData)
      .find((data) => data !== undefined);
    // A signature that does not cover bankIdSignedData proves nothing about what the user saw.
    return signedData ? { valid: true, certificates, signedData } : { valid: false, certificates };
  } catch {
    return { valid: false, certificates };
  }
}

function readSignedData(referenceXml: string): BankIdSignedData | undefined {
  const element = new DOMParser({ onError: () => undefined }).parseFromString(referenceXml, 'text/xml').documentElement;
  if (!element || element.localName !== 'bankIdSignedData' || element.namespaceURI !== BANKID_SIGNATURE_NS) return undefined;
  const text = (parent: Element, name: string) => {
    const found = Array.from(parent.childNodes).find((n): n is Element => n.nodeType === 1 && (n as Element).localName === name);
    return found ? (found.textContent ?? '') : undefined;
  };
  const clientInfo = Array.from(element.childNodes).find(
    (n): n is Element => n.nodeType === 1 && (n as Element).localName === 'clientInfo',
  );
  return {
    usrVisibleData: text(element, 'usrVisibleData'),
    usrNonVisibleData: text(element, 'usrNonVisibleData'),
    funcId: clientInfo ? text(clientInfo, 'funcId') : undefined,
  };
}
