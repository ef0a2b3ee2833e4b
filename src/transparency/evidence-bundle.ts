import { createHash } from 'node:crypto';
import type { JSONWebKeySet } from 'jose';
import type { EvidenceVerification } from '../eid-providers/evidence-verification.js';
import type { TreeHeadView } from './transparency-log.service.js';

/** The format an evidence bundle declares (docs/transparency.md, "Evidence bundles"). */
export const BUNDLE_FORMAT = 'eidgw-evidence-bundle/1';

/** The verification report is a JWS of its own type, so that it passes for no other token. */
export const REPORT_TYPE = 'eidgw-evidence-report+jwt';

/** One JSON file that proves a session's outcome offline, long after the service purged it. */
export interface EvidenceBundle {
  format: typeof BUNDLE_FORMAT;
  sessionId: string;
  /** The session's result token (compact JWS), as the RP received it. */
  resultToken: string;
  /** The public keys of every signature in the bundle (the token, the report, the tree head). */
  jwks: JSONWebKeySet;
  /** The provider's raw evidence as kept (BankID's signature and OCSP response, Freja's JWS, an upstream's id token); null when none. */
  evidence: Record<string, unknown> | null;
  /** A JWS of the service binding the report to the token and the evidence (EvidenceReportClaims). */
  verificationReport: string;
  transparency: BundleInclusion;
}

/** The inclusion of the result token's leaf under a signed tree head: also what /transparency/proof answers. */
export interface BundleInclusion {
  leafHash: string;
  leafIndex: number;
  treeSize: number;
  inclusionProof: string[];
  treeHead: TreeHeadView | null;
}

/** The verification report's claims, beside iss, sub (the session) and aud (the team). */
export interface EvidenceReportClaims {
  provider: string;
  /** Hex SHA-256 of the result token's ASCII. */
  resultTokenSha256: string;
  /** evidenceDigest of the bundle's evidence; null when there is none. */
  evidenceSha256: string | null;
  /** The service's own check of the evidence when the session completed; null when there was nothing to check. */
  verification: EvidenceVerification | null;
}

export const sha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/**
 * The digest the report binds the evidence with: SHA-256 of its JSON text as JSON.stringify writes it.
 * A verifier parses the bundle and stringifies the member again: the same text for the same values.
 */
export const evidenceDigest = (evidence: Record<string, unknown>): string => sha256Hex(JSON.stringify(evidence));
