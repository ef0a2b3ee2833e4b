/** What an OCSP responder said of a certificate; `invalid`: the response could not be relied on. */
export type OcspStatus = 'good' | 'revoked' | 'unknown' | 'invalid';

/** The service's own check of a provider's evidence, part by part (docs/evidence.md). */
export interface EvidenceVerification {
  status: 'verified' | 'failed';
  signatureValid: boolean;
  certificateTrusted: boolean;
  /** Absent where the provider's evidence has no OCSP response (docs/evidence.md). */
  ocspStatus?: OcspStatus;
  signedDataMatches: boolean;
  /** ISO 8601. */
  checkedAt: string;
}
