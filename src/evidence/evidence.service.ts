import { Injectable } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import type { EidOperation } from '../eid-providers/eid-provider.js';
import { EvidenceTrustRoots } from './evidence-trust-roots.js';
import type { EvidenceVerification } from './evidence-verification.js';
import { EvidenceVerifier } from './evidence-verifier.js';

/** The facts of a session its evidence is checked against. */
export interface EvidenceSession {
  id: string;
  provider: string;
  environment: ApiKeyEnvironment;
  operation: EidOperation;
  /** Base64, as sent to the order. */
  userVisibleData?: string;
  userNonVisibleData?: string;
}

/** What the service keeps of a completion (encrypted, purged with the personal data: docs/evidence.md). */
export interface StoredEvidence {
  bankIdIssueDate?: string;
  stepUp?: Record<string, unknown>;
  risk?: string;
  signature?: string;
  ocspResponse?: string;
  verification?: EvidenceVerification;
}

/** The `evidence` member of poll answers and webhooks: no raw signature or OCSP response. */
export interface EvidenceView {
  bankIdIssueDate?: string;
  stepUp?: Record<string, unknown>;
  risk?: string;
  verification?: EvidenceVerification;
}

/** Checks a completion's evidence against its session and shapes it for storage and for answers. */
@Injectable()
export class EvidenceService {
  constructor(
    private readonly verifier: EvidenceVerifier,
    private readonly trustRoots: EvidenceTrustRoots,
  ) {}

  /**
   * The evidence to store for a completion, verified when it carries a signature; undefined when there
   * is none. `completion` is what the provider reported: the evidence must be of that user, at that time.
   */
  async assess(
    session: EvidenceSession,
    evidence: Record<string, unknown> | undefined,
    completion: { personalNumber?: string; at: Date },
  ): Promise<StoredEvidence | undefined> {
    if (!evidence) return undefined;
    const stored: StoredEvidence = {
      ...(typeof evidence.bankIdIssueDate === 'string' ? { bankIdIssueDate: evidence.bankIdIssueDate } : {}),
      ...(isObject(evidence.stepUp) ? { stepUp: evidence.stepUp } : {}),
      ...(typeof evidence.risk === 'string' ? { risk: evidence.risk } : {}),
      ...(typeof evidence.signature === 'string' ? { signature: evidence.signature } : {}),
      ...(typeof evidence.ocspResponse === 'string' ? { ocspResponse: evidence.ocspResponse } : {}),
    };
    if (stored.signature === undefined && stored.ocspResponse === undefined) return stored;
    stored.verification = await this.verifier.verify(
      {
        signature: stored.signature ?? '',
        ocspResponse: stored.ocspResponse ?? '',
        expected: { userVisibleData: session.userVisibleData, userNonVisibleData: session.userNonVisibleData },
        trustRoots: this.trustRoots.forSession(session.provider, session.environment),
        completion: { operation: session.operation, personalNumber: completion.personalNumber, at: completion.at },
      },
      { sessionId: session.id },
    );
    return stored;
  }
}

export function evidenceView(stored: StoredEvidence): EvidenceView {
  const { signature: _signature, ocspResponse: _ocspResponse, ...view } = stored;
  return view;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
