import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { Http } from './e2e.js';

/** JWT_ISSUER of the test apps (the default PUBLIC_BASE_URL). */
export const TEST_ISSUER = 'http://localhost:3000';

/** Verifies a result token as an RP would (docs/evidence.md): against the published JWKS, typed, addressed to the team. */
export async function verifyResultToken(http: Http, token: string, teamId: string): Promise<JWTPayload> {
  const jwks = (await http.get('/.well-known/jwks.json').expect(200)).body;
  const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
    issuer: TEST_ISSUER,
    audience: teamId,
    typ: 'eidgw-result+jwt',
    algorithms: ['ES256'],
  });
  return payload;
}

/** A token with one claim changed and the signature kept: it must not verify. */
export function tamperedResultToken(token: string, claims: Record<string, unknown>): string {
  const [header, payload, signature] = token.split('.');
  const changed = { ...JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')), ...claims };
  return [header, Buffer.from(JSON.stringify(changed)).toString('base64url'), signature].join('.');
}

/** The verification of evidence whose every part holds. */
export const VERIFIED_EVIDENCE = {
  status: 'verified',
  signatureValid: true,
  certificateTrusted: true,
  ocspStatus: 'good',
  signedDataMatches: true,
  checkedAt: expect.any(String),
};
