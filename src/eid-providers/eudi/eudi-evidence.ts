import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { compactVerify, decodeJwt, decodeProtectedHeader } from 'jose';
import type { Clock } from '../../common/clock/clock.js';
import type { EvidenceProfile } from '../eid-provider.js';
import type { EudiTrust } from './eudi-verifier-identity.js';
import type { PresentationReport } from './presentation-checks.js';
import type { VerifiedPresentation } from './sd-jwt-vc-verifier.js';
import { chainsToAnchors, x5cCertificates } from './x5c-chain.js';

const logger = new Logger('EudiEvidence');
const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The evidence of an accepted presentation: who issued what, its hash, the checks it passed, and the presentation itself. */
export function eudiEvidenceOf(presentation: string, verified: VerifiedPresentation): Record<string, unknown> {
  return {
    kind: 'openid4vp',
    issuer: verified.issuer,
    vct: verified.vct,
    presentationSha256: sha256Hex(presentation),
    checks: verified.report,
    presentation,
  };
}

/**
 * The wallet's evidence (docs/eudi-wallet.md, "Evidence"): the presentation is shown only at the
 * evidence route and bound by the result token; verification checks the issuer's signature and chain
 * again (at the time the session completed) and that the hash, issuer and type are the presentation's.
 * The checks made when it was received (disclosures, key binding, status list) are reported beside.
 */
export function eudiEvidenceProfile(trust: () => EudiTrust | null, clock: Clock): EvidenceProfile {
  return {
    keep: ({ kind, issuer, vct, presentationSha256, checks, presentation }) => ({
      kind,
      issuer,
      vct,
      presentationSha256,
      checks,
      presentation,
    }),
    // The checks made at receipt are reported in `verification`; kept raw so they are not shown twice.
    rawMembers: ['presentation', 'checks'],
    verify: async (kept, session, completion) => {
      const { presentation } = kept;
      if (typeof presentation !== 'string') return undefined;
      const checkedAt = clock.now().toISOString();
      let signatureValid = false;
      let certificateTrusted = false;
      let signedDataMatches = false;
      try {
        const issuerJwt = presentation.slice(0, presentation.indexOf('~'));
        const header = decodeProtectedHeader(issuerJwt);
        const certificates = x5cCertificates(header.x5c);
        const anchors = trust()?.anchorsFor(session.environment) ?? [];
        certificateTrusted = certificates !== null && (await chainsToAnchors(certificates, anchors, completion.at));
        signatureValid =
          certificates !== null &&
          (await compactVerify(issuerJwt, certificates[0].publicKey, { algorithms: ['ES256', 'ES384', 'ES512'] }).then(
            () => true,
            () => false,
          ));
        const payload = decodeJwt(issuerJwt);
        signedDataMatches = sha256Hex(presentation) === kept.presentationSha256 && payload.iss === kept.issuer && payload.vct === kept.vct;
      } catch {
        // A presentation that no longer parses: not verified.
      }
      const verified = signatureValid && certificateTrusted && signedDataMatches;
      if (!verified)
        logger.warn({ sessionId: session.id, signatureValid, certificateTrusted, signedDataMatches }, 'Evidence verification failed');
      const checks = (kept.checks ?? {}) as Partial<PresentationReport>;
      return {
        status: verified ? 'verified' : 'failed',
        signatureValid,
        certificateTrusted,
        signedDataMatches,
        checkedAt,
        ...checks,
        issuerSignature: signatureValid ? 'valid' : 'invalid',
        chain: certificateTrusted ? 'trusted' : 'untrusted',
      };
    },
    // The token binds the presentation as received: base64 of its UTF-8 text.
    sealed: (kept) => (typeof kept.presentation === 'string' ? Buffer.from(kept.presentation, 'utf8').toString('base64') : undefined),
  };
}
