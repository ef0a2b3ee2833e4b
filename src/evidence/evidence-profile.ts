import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import type { EidOperation } from '../eid-providers/eid-provider.js';
import type { EvidenceVerification } from './evidence-verification.js';

/** The facts of a session its evidence is checked against. */
export interface EvidenceSession {
  id: string;
  provider: string;
  environment: ApiKeyEnvironment;
  operation: EidOperation;
  /** The provider's reference of the order that completed. */
  orderRef: string;
  /** Base64, as sent to the order. */
  userVisibleData?: string;
  userNonVisibleData?: string;
}

/** What the completion reports, which the evidence must be of (docs/evidence.md). */
export interface EvidenceCompletion {
  /** user.personalNumber of the completion. */
  personalNumber?: string;
  /** When the session completed. */
  at: Date;
}

/**
 * What a provider keeps of a completion's evidence and how the service checks it (docs/evidence.md,
 * docs/providers.md). The kept members are stored encrypted and purged with the personal data.
 */
export interface EvidenceProfile {
  /** The members of the provider's evidence worth keeping; anything else it sent is dropped. */
  keep(provided: Record<string, unknown>): Record<string, unknown>;
  /** Kept members too raw for poll answers and webhooks (signatures, OCSP responses): only the evidence route shows them. */
  readonly rawMembers: readonly string[];
  /** The service's own check of what was kept; undefined when there is nothing to check. Never throws. */
  verify(
    kept: Record<string, unknown>,
    session: EvidenceSession,
    completion: EvidenceCompletion,
  ): Promise<EvidenceVerification | undefined>;
  /** Base64 of the bytes the result token's `evidenceSha256` binds (the provider's signature); undefined when none. */
  sealed(kept: Record<string, unknown>): string | undefined;
}
