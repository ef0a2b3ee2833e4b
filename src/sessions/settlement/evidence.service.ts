import { Injectable } from '@nestjs/common';
import type { EvidenceCompletion, EvidenceProfile, EvidenceSession } from '../../eid-providers/eid-provider.js';
import type { EvidenceVerification } from '../../eid-providers/evidence-verification.js';

/** What the service keeps of a completion (encrypted, purged with the personal data: docs/evidence.md). */
export type StoredEvidence = Record<string, unknown> & { verification?: EvidenceVerification };

/** The `evidence` member of poll answers and webhooks: the kept members without the raw ones. */
export type EvidenceView = StoredEvidence;

/** Keeps and checks a completion's evidence as its provider's profile says, and shapes it for answers. */
@Injectable()
export class EvidenceService {
  /**
   * The evidence to store for a completion, with the provider's verification of it; undefined when
   * there is none. `completion` is what the provider reported: the evidence must be of that user, at that time.
   */
  async assess(
    session: EvidenceSession,
    profile: EvidenceProfile | undefined,
    evidence: Record<string, unknown> | undefined,
    completion: EvidenceCompletion,
  ): Promise<StoredEvidence | undefined> {
    if (!evidence || !profile) return undefined;
    const kept: StoredEvidence = profile.keep(evidence);
    const verification = await profile.verify(kept, session, completion);
    return verification ? { ...kept, verification } : kept;
  }
}

export function evidenceView(stored: StoredEvidence, rawMembers: readonly string[]): EvidenceView {
  return Object.fromEntries(Object.entries(stored).filter(([member]) => !rawMembers.includes(member)));
}
