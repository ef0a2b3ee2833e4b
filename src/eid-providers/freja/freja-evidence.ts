import { Logger } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import type { Clock } from '../../common/clock/clock.js';
import type { EvidenceProfile } from '../eid-provider.js';
import type { FrejaJwsVerifier } from './freja-jws.js';
import { parseFrejaOrderRef } from './freja-qr.js';

const logger = new Logger('FrejaEvidence');
const NOTHING_HOLDS = { signatureValid: false, certificateTrusted: false, signedDataMatches: false };

/**
 * Freja's evidence (docs/freja.md, "Evidence"): the signed `details` JWS of the result, the user's
 * signature of a sign transaction and the registration level. The raw JWSs are shown only at the
 * evidence route; verification checks `details` again against FREJA_(TEST_)JWS_CERTS, as kept.
 * Freja's result has no OCSP response, so the verification has no `ocspStatus`.
 */
export function frejaEvidenceProfile(
  verifierFor: (environment: ApiKeyEnvironment) => FrejaJwsVerifier | undefined,
  clock: Clock,
): EvidenceProfile {
  return {
    keep: (evidence) => ({
      ...(typeof evidence.details === 'string' ? { details: evidence.details } : {}),
      ...(typeof evidence.userSignature === 'string' ? { userSignature: evidence.userSignature } : {}),
      ...(typeof evidence.registrationLevel === 'string' ? { registrationLevel: evidence.registrationLevel } : {}),
    }),
    rawMembers: ['details', 'userSignature'],
    verify: async (kept, session, completion) => {
      if (typeof kept.details !== 'string') return undefined;
      const checkedAt = clock.now().toISOString();
      const verifier = verifierFor(session.environment);
      let parts = NOTHING_HOLDS;
      try {
        const { operation, reference } = parseFrejaOrderRef(session.orderRef);
        if (verifier) parts = await verifier.check(kept.details, operation, reference, completion.at);
      } catch {
        parts = NOTHING_HOLDS;
      }
      const verified = parts.signatureValid && parts.certificateTrusted && parts.signedDataMatches;
      if (!verified) logger.warn({ sessionId: session.id, ...parts }, 'Evidence verification failed');
      return { status: verified ? 'verified' : 'failed', ...parts, checkedAt };
    },
    // The token binds the JWS as received: base64 of its UTF-8 text.
    sealed: (kept) => (typeof kept.details === 'string' ? Buffer.from(kept.details, 'utf8').toString('base64') : undefined),
  };
}
