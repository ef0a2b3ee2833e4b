import type { ApiKeyEnvironment } from '../../../api-keys/api-key-format.js';
import type { EvidenceProfile } from '../../eid-provider.js';
import type { EvidenceVerifier } from './evidence-verifier.js';

/**
 * BankID's completionData evidence, which the simulator produces too (docs/evidence.md): the issue
 * date, step-up and risk for answers; the XML signature and the OCSP response, raw, for the evidence
 * route. It is verified against the roots `rootsFor` gives for the session's environment.
 */
export function xmlEvidenceProfile(
  verifier: EvidenceVerifier,
  rootsFor: (environment: ApiKeyEnvironment) => readonly string[],
): EvidenceProfile {
  return {
    keep: (evidence) => ({
      ...(typeof evidence.bankIdIssueDate === 'string' ? { bankIdIssueDate: evidence.bankIdIssueDate } : {}),
      ...(isObject(evidence.stepUp) ? { stepUp: evidence.stepUp } : {}),
      ...(typeof evidence.risk === 'string' ? { risk: evidence.risk } : {}),
      ...(typeof evidence.signature === 'string' ? { signature: evidence.signature } : {}),
      ...(typeof evidence.ocspResponse === 'string' ? { ocspResponse: evidence.ocspResponse } : {}),
    }),
    rawMembers: ['signature', 'ocspResponse'],
    verify: async (kept, session, completion) => {
      if (kept.signature === undefined && kept.ocspResponse === undefined) return undefined;
      return verifier.verify(
        {
          signature: typeof kept.signature === 'string' ? kept.signature : '',
          ocspResponse: typeof kept.ocspResponse === 'string' ? kept.ocspResponse : '',
          expected: { userVisibleData: session.userVisibleData, userNonVisibleData: session.userNonVisibleData },
          trustRoots: rootsFor(session.environment),
          completion: { operation: session.operation, personalNumber: completion.personalNumber, at: completion.at },
        },
        { sessionId: session.id },
      );
    },
    sealed: (kept) => (typeof kept.signature === 'string' ? kept.signature : undefined),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
