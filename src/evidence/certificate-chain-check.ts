import * as pkijs from 'pkijs';

export interface ChainCheck {
  trusted: boolean;
  /** The certificate that issued the signer's, taken from the validated path (needed for OCSP). */
  issuer?: pkijs.Certificate;
}

/**
 * Whether the signer's certificate chains, through the certificates the signature carries, to one of
 * the trust roots, every certificate valid at `at` (RFC 5280 path validation by pkijs). Never throws.
 */
export async function checkCertificateChain(
  signer: pkijs.Certificate,
  carried: pkijs.Certificate[],
  roots: pkijs.Certificate[],
  at: Date,
): Promise<ChainCheck> {
  if (roots.length === 0) return { trusted: false };
  try {
    const engine = new pkijs.CertificateChainValidationEngine({ trustedCerts: roots, certs: [signer, ...carried], checkDate: at });
    const result = await engine.verify();
    if (!result.result || !result.certificatePath) return { trusted: false };
    const issuer = result.certificatePath.find((c) => !sameCertificate(c, signer) && c.subject.isEqual(signer.issuer));
    return issuer ? { trusted: true, issuer } : { trusted: false };
  } catch {
    return { trusted: false };
  }
}

export function sameCertificate(a: pkijs.Certificate, b: pkijs.Certificate): boolean {
  return Buffer.from(a.toSchema().toBER()).equals(Buffer.from(b.toSchema().toBER()));
}
