import { X509Certificate } from 'node:crypto';
import * as pkijs from 'pkijs';
import { checkCertificateChain } from '../shared/xml-evidence/certificate-chain-check.js';

const MAX_CHAIN = 5;

/** The `x5c` header's certificates (RFC 7515, 4.1.6: base64 DER, the signer first); null when malformed. */
export function x5cCertificates(x5c: unknown): X509Certificate[] | null {
  if (!Array.isArray(x5c) || x5c.length === 0 || x5c.length > MAX_CHAIN) return null;
  try {
    return x5c.map((entry) => {
      if (typeof entry !== 'string') throw new Error('not a string');
      return new X509Certificate(Buffer.from(entry, 'base64'));
    });
  } catch {
    return null;
  }
}

export const toPkijs = (certificate: X509Certificate): pkijs.Certificate => pkijs.Certificate.fromBER(certificate.raw);

/**
 * Whether the signer (the first of `x5c`) is a signing end entity that chains through the others to
 * one of the anchors, every certificate valid at `at` (the shared path check of docs/evidence.md).
 */
export async function chainsToAnchors(certificates: X509Certificate[], anchors: readonly pkijs.Certificate[], at: Date): Promise<boolean> {
  if (anchors.length === 0) return false;
  const [signer, ...carried] = certificates.map(toPkijs);
  return (await checkCertificateChain(signer, carried, [...anchors], at)).trusted;
}
