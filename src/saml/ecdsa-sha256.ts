import { createPrivateKey, createPublicKey, KeyObject, sign, verify, type BinaryLike, type KeyLike } from 'node:crypto';
import { createOptionalCallbackFunction, type SignatureAlgorithm } from 'xml-crypto';

export const ECDSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256';

/** XML-DSig carries an ECDSA signature as the raw r||s (RFC 4051, 2.3.6), not DER. */
const ECDSA_ENCODING = 'ieee-p1363';

/**
 * ECDSA-SHA256 for xml-crypto, which ships RSA only: registered on a `SignedXml`'s
 * `SignatureAlgorithms`, its extension point, shaped like xml-crypto's own RSA classes.
 * Canonicalisation and digests stay xml-crypto's; the signature is Node's.
 */
export class EcdsaSha256 implements SignatureAlgorithm {
  getSignature = createOptionalCallbackFunction((signedInfo: BinaryLike, privateKey: KeyLike): string =>
    sign('sha256', typeof signedInfo === 'string' ? Buffer.from(signedInfo, 'utf8') : signedInfo, {
      key: privateKey instanceof KeyObject ? privateKey : createPrivateKey(privateKey),
      dsaEncoding: ECDSA_ENCODING,
    }).toString('base64'),
  );

  verifySignature = createOptionalCallbackFunction((material: string, key: KeyLike, signatureValue: string): boolean =>
    verify(
      'sha256',
      Buffer.from(material, 'utf8'),
      { key: key instanceof KeyObject ? key : createPublicKey(key), dsaEncoding: ECDSA_ENCODING },
      Buffer.from(signatureValue, 'base64'),
    ),
  );

  getAlgorithmName = (): string => ECDSA_SHA256;
}
