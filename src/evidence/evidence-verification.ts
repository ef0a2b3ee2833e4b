import type { EidOperation } from '../eid-providers/eid-provider.js';
import type { OcspStatus } from './ocsp-response-check.js';

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

export interface EvidenceToVerify {
  /** completionData.signature: base64 of the XML signature. */
  signature: string;
  /** completionData.ocspResponse: base64 of the DER OCSP response. */
  ocspResponse: string;
  /** What the session sent to the order, base64 as sent; absent when it sent none. */
  expected: { userVisibleData?: string; userNonVisibleData?: string };
  /** PEM certificates the user's certificate must chain to. */
  trustRoots: readonly string[];
  /** What the completion reports, which the evidence must be of (docs/evidence.md). */
  completion: {
    /** `auth` expects funcId Identification, `sign` and `payment` Signing. */
    operation: EidOperation;
    /** user.personalNumber of the completion: the signer certificate's must be the same. */
    personalNumber?: string;
    /** When the session completed: the signer certificate must be valid then, the OCSP response fresh. */
    at: Date;
  };
}
