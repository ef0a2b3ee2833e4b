import { SignedXml } from 'xml-crypto';

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

export interface SigningKey {
  privateKey: string;
  certificate: string;
}

/** The certificate's base64 DER, as a KeyInfo or a KeyDescriptor carries it. */
export const certificateBody = (pem: string): string =>
  pem
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .split(/\s+/)
    .join('');

/**
 * An enveloped signature of the root element by xml-crypto (exclusive c14n, RSA-SHA256), placed where
 * the schema wants it: after the root's Issuer (a Response) or as its first child (an EntityDescriptor).
 */
export function signRoot(xml: string, key: SigningKey, placement: 'after-issuer' | 'first-child'): string {
  const signed = new SignedXml({
    privateKey: key.privateKey,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
    getKeyInfoContent: () => `<ds:X509Data><ds:X509Certificate>${certificateBody(key.certificate)}</ds:X509Certificate></ds:X509Data>`,
  });
  signed.addReference({ xpath: '/*', transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: SHA256 });
  signed.computeSignature(xml, {
    prefix: 'ds',
    location:
      placement === 'after-issuer'
        ? { reference: "/*/*[local-name(.)='Issuer']", action: 'after' }
        : { reference: '/*/*[1]', action: 'before' },
  });
  return signed.getSignedXml();
}
