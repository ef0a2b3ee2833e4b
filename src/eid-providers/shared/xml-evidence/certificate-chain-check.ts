import * as pkijs from 'pkijs';
import { isSigningEndEntity } from './signer-certificate-check.js';

export interface ChainCheck {
  trusted: boolean;
  /** The certificate that issued the signer's and whose key signed it (needed for OCSP). */
  issuer?: pkijs.Certificate;
}

/**
 * Whether the signer's own certificate is a signing end entity (not a CA, a signing key usage) and
 * chains, through the certificates the signature carries, to one of the trust roots, every certificate
 * of the path, the signer's included, valid at `at` (docs/evidence.md). Never throws.
 */
export async function checkCertificateChain(
  signer: pkijs.Certificate,
  carried: pkijs.Certificate[],
  roots: pkijs.Certificate[],
  at: Date,
): Promise<ChainCheck> {
  if (roots.length === 0 || !isSigningEndEntity(signer)) return { trusted: false };
  try {
    // pkijs builds the path from the LAST of `certs`: the signer must be last, or it validates an issuer
    // of the signature's KeyInfo and never the signer (docs/bankid.md: user, bank CA, root in that order).
    const intermediates = carried.filter((c) => !sameCertificate(c, signer));
    const engine = new pkijs.CertificateChainValidationEngine({ trustedCerts: roots, certs: [...intermediates, signer], checkDate: at });
    const { result, certificatePath: path } = await engine.verify();
    // The path must start at the signer itself: pkijs drops duplicates, which could move another to the end.
    if (!result || !path || path.length < 2 || !sameCertificate(path[0], signer) || sameCertificate(path[1], signer)) {
      return { trusted: false };
    }
    const issuer = path[1];
    // pkijs checked this signature while building the path; the OCSP check relies on this issuer, so it is not left implicit.
    if (!signer.issuer.isEqual(issuer.subject) || !(await signer.verify(issuer))) return { trusted: false };
    return { trusted: true, issuer };
  } catch {
    return { trusted: false };
  }
}

export function sameCertificate(a: pkijs.Certificate, b: pkijs.Certificate): boolean {
  return Buffer.from(a.toSchema().toBER()).equals(Buffer.from(b.toSchema().toBER()));
}
