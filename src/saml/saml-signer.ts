import { createPrivateKey } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { ECDSA_SHA256, EcdsaSha256 } from './ecdsa-sha256.js';

export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
export const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

export interface SigningKey {
  privateKey: string;
  certificate: string;
}

/** The key types the front signs with (docs/saml.md, "Turning it on"): RSA, or EC on P-256. */
export const signingKeyProblem = (pem: string): string | undefined => {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType === 'rsa') return undefined;
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return undefined;
  return 'must be an RSA or an EC P-256 private key';
};

/** The XML-DSig signature method of a key, by its type: ECDSA-SHA256 for an EC key, else RSA-SHA256. */
export const signatureAlgorithmOf = (key: SigningKey): typeof RSA_SHA256 | typeof ECDSA_SHA256 =>
  createPrivateKey(key.privateKey).asymmetricKeyType === 'ec' ? ECDSA_SHA256 : RSA_SHA256;

/** The certificate's base64 DER, as a KeyInfo or a KeyDescriptor carries it. */
export const certificateBody = (pem: string): string =>
  pem
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .split(/\s+/)
    .join('');

/** Where a signature goes: the element signed (by its ID) and the sibling the schema wants it after or before. */
export interface Placement {
  element: string;
  location: { reference: string; action: 'after' | 'before' };
}

/** The root, the signature after its Issuer: a Response, a LogoutResponse. */
export const AFTER_ROOT_ISSUER: Placement = {
  element: '/*',
  location: { reference: "/*/*[local-name(.)='Issuer']", action: 'after' },
};
/** The root, the signature as its first child: an EntityDescriptor. */
export const ROOT_FIRST_CHILD: Placement = { element: '/*', location: { reference: '/*/*[1]', action: 'before' } };
/** A Response's assertion, the signature after the assertion's Issuer. */
export const AFTER_ASSERTION_ISSUER: Placement = {
  element: "/*/*[local-name(.)='Assertion']",
  location: { reference: "/*/*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
};

/**
 * An enveloped signature of one element by xml-crypto (exclusive c14n, SHA-256 digest), with the
 * key's algorithm (RSA-SHA256, or ECDSA-SHA256 through xml-crypto's algorithm registry), placed where
 * the schema wants it.
 */
export function signElement(xml: string, key: SigningKey, placement: Placement): string {
  const signed = new SignedXml({
    privateKey: key.privateKey,
    signatureAlgorithm: signatureAlgorithmOf(key),
    canonicalizationAlgorithm: EXC_C14N,
    getKeyInfoContent: () => `<ds:X509Data><ds:X509Certificate>${certificateBody(key.certificate)}</ds:X509Certificate></ds:X509Data>`,
  });
  signed.SignatureAlgorithms[ECDSA_SHA256] = EcdsaSha256;
  signed.addReference({ xpath: placement.element, transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: SHA256 });
  signed.computeSignature(xml, { prefix: 'ds', location: placement.location });
  return signed.getSignedXml();
}
