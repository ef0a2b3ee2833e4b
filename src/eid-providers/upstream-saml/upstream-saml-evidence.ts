import { Logger } from '@nestjs/common';
import type { Clock } from '../../common/clock/clock.js';
import type { EvidenceProfile } from '../eid-provider.js';
import { samlify } from '../../saml/samlify.js';
import { upstreamSamlIdp } from './upstream-saml-entities.js';
import type { UpstreamSamlConfig } from './upstream-saml.env.js';

const logger = new Logger('UpstreamSamlEvidence');

/**
 * An upstream SAML IdP's evidence (docs/saml.md, "Upstream SAML e-IDs"): the assertion's issuer,
 * AuthnContextClassRef and ID, and the SHA-256 of the verified Response. The Response itself (its
 * assertion decrypted) is shown only at the evidence route; verification checks its signature again by
 * the certificate of the IdP's metadata.
 */
export function upstreamSamlEvidenceProfile(upstream: UpstreamSamlConfig, clock: Clock): EvidenceProfile {
  const idp = upstreamSamlIdp(upstream);
  return {
    keep: (evidence) => {
      const { issuer, authnContextClassRef, assertionId, responseSha256, response } = evidence;
      return { issuer, authnContextClassRef, assertionId, responseSha256, response };
    },
    rawMembers: ['response'],
    verify: (kept, session) => {
      if (typeof kept.response !== 'string') return Promise.resolve(undefined);
      let signatureValid = false;
      try {
        [signatureValid] = samlify().SamlLib.verifySignature(kept.response, { metadata: idp.entityMeta });
      } catch {
        // A signature that does not hold: not verified.
      }
      const signedDataMatches = kept.issuer === upstream.idpEntityId;
      const verified = signatureValid && signedDataMatches;
      if (!verified) logger.warn({ sessionId: session.id, signatureValid, signedDataMatches }, 'Evidence verification failed');
      return Promise.resolve({
        status: verified ? 'verified' : 'failed',
        signatureValid,
        certificateTrusted: signatureValid,
        signedDataMatches,
        checkedAt: clock.now().toISOString(),
      });
    },
    // The token binds the verified Response as received: base64 of its UTF-8 text.
    sealed: (kept) => (typeof kept.response === 'string' ? Buffer.from(kept.response, 'utf8').toString('base64') : undefined),
  };
}
