import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Clock } from '../../common/clock/clock.js';
import type { EvidenceProfile } from '../eid-provider.js';
import type { UpstreamConfig } from './upstream-oidc.env.js';

const logger = new Logger('UpstreamEvidence');

/** The evidence of one sign-in: the id token's own statements and the signed id token itself. */
export function upstreamEvidenceOf(idToken: string, claims: Record<string, unknown>): Record<string, unknown> {
  return {
    ...(claims.acr === undefined ? {} : { acr: claims.acr }),
    ...(claims.amr === undefined ? {} : { amr: claims.amr }),
    iss: claims.iss,
    idTokenSha256: createHash('sha256').update(idToken, 'utf8').digest('hex'),
    idToken,
  };
}

/**
 * An upstream's evidence (docs/upstream-oidc.md, "Evidence"): `acr`, `amr`, `iss` and the SHA-256 of
 * the signed id token (the inner JWS of an encrypted one). The id token itself is shown only at the
 * evidence route; verification checks its signature again against the upstream's JWKS, and that it
 * was issued by the configured issuer to the service's client.
 */
export function upstreamEvidenceProfile(upstream: UpstreamConfig, jwksUri: () => Promise<string>, clock: Clock): EvidenceProfile {
  let keys: JWTVerifyGetKey | undefined;
  return {
    keep: (evidence) => {
      const { acr, amr, iss, idTokenSha256, idToken } = evidence;
      return { acr, amr, iss, idTokenSha256, idToken };
    },
    rawMembers: ['idToken'],
    verify: async (kept, session, completion) => {
      if (typeof kept.idToken !== 'string') return undefined;
      const checkedAt = clock.now().toISOString();
      let signatureValid = false;
      let signedDataMatches = false;
      try {
        keys ??= createRemoteJWKSet(new URL(await jwksUri()));
        // The token was to be valid when the session completed; the evidence outlives it.
        const { payload } = await jwtVerify(kept.idToken, keys, { currentDate: completion.at, clockTolerance: 60 });
        signatureValid = true;
        const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
        signedDataMatches = payload.iss === upstream.issuer && audiences.includes(upstream.clientId) && payload.iss === kept.iss;
      } catch {
        // A signature that does not hold, or keys that cannot be fetched: not verified.
      }
      const verified = signatureValid && signedDataMatches;
      if (!verified) logger.warn({ sessionId: session.id, signatureValid, signedDataMatches }, 'Evidence verification failed');
      return { status: verified ? 'verified' : 'failed', signatureValid, certificateTrusted: signatureValid, signedDataMatches, checkedAt };
    },
    // The token binds the signed id token as received: base64 of its UTF-8 text.
    sealed: (kept) => (typeof kept.idToken === 'string' ? Buffer.from(kept.idToken, 'utf8').toString('base64') : undefined),
  };
}
