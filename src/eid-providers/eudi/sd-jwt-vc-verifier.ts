import { SDJwt } from '@sd-jwt/core';
import { digest } from '@sd-jwt/crypto-nodejs';
import { compactVerify, importJWK, type JWK } from 'jose';
import { constantTimeEqual } from '../../common/crypto/constant-time.js';
import {
  PresentationRejected,
  type PresentationCheck,
  type PresentationExpectations,
  type PresentationReport,
} from './presentation-checks.js';
import type { StatusListCheck } from './status-list.js';
import { chainsToAnchors, x5cCertificates } from './x5c-chain.js';

const SIGNING_ALGORITHMS = ['ES256', 'ES384', 'ES512'];
/** The key-binding JWT's `iat` must be within this of now (docs/eudi-wallet.md). */
export const KB_IAT_WINDOW_S = 300;
// Clock skew allowed on the credential's own times.
const SKEW_S = 60;

/** A presentation that passed every check: its issuer, type, the disclosed claims only, and the report. */
export interface VerifiedPresentation {
  issuer: string;
  vct: string;
  claims: Record<string, unknown>;
  report: PresentationReport;
}

type Payload = Record<string, unknown>;
const hasher = (data: string | ArrayBuffer, alg: string) => digest(data, alg);

const ensure = (condition: unknown, check: PresentationCheck): void => {
  if (!condition) throw new PresentationRejected(check);
};

/** The JWS's signature by `key`, with the one algorithm its header names; jose does the cryptography. */
async function signedBy(compact: string, key: Parameters<typeof compactVerify>[1], alg: string): Promise<boolean> {
  return compactVerify(compact, key, { algorithms: [alg] }).then(
    () => true,
    () => false,
  );
}

/**
 * An SD-JWT VC presentation with its key-binding JWT (SD-JWT VC, RFC 9901, OpenID4VP 1.0 section B.3),
 * checked in full before anything is taken from it (docs/eudi-wallet.md, "What is checked"). @sd-jwt/core
 * parses it and resolves the disclosures, jose verifies the signatures, the shared path check the chain;
 * the order of the checks and what the evidence reports is ours. Throws PresentationRejected naming the check.
 */
export async function verifyPresentation(
  presentation: string,
  expected: PresentationExpectations,
  statusLists: StatusListCheck,
): Promise<VerifiedPresentation> {
  let sdJwt: SDJwt<Payload, Payload>;
  try {
    sdJwt = await SDJwt.fromEncode<Payload, Payload>(presentation, hasher);
  } catch {
    throw new PresentationRejected('format');
  }
  const { jwt, kbJwt } = sdJwt;
  const header = jwt?.header ?? {};
  const payload = jwt?.payload ?? {};
  const alg = typeof header.alg === 'string' ? header.alg : '';
  ensure(header.typ === 'dc+sd-jwt' && SIGNING_ALGORITHMS.includes(alg) && typeof payload.iss === 'string', 'format');

  const certificates = x5cCertificates(header.x5c);
  ensure(certificates && (await chainsToAnchors(certificates, expected.anchors, expected.now)), 'chain');
  const issuerJwt = presentation.slice(0, presentation.indexOf('~'));
  ensure(await signedBy(issuerJwt, certificates![0].publicKey, alg), 'issuerSignature');

  ensure(typeof payload.vct === 'string' && expected.vctValues.includes(payload.vct), 'vct');
  const now = Math.floor(expected.now.getTime() / 1000);
  const time = (claim: unknown) => (claim === undefined ? undefined : typeof claim === 'number' ? claim : NaN);
  const [exp, nbf, iat] = [time(payload.exp), time(payload.nbf), time(payload.iat)];
  ensure(
    !Number.isNaN(exp) &&
      !Number.isNaN(nbf) &&
      !Number.isNaN(iat) &&
      (exp === undefined || exp + SKEW_S > now) &&
      (nbf ?? 0) - SKEW_S <= now,
    'validity',
  );
  ensure(await everyDisclosureReferenced(sdJwt), 'disclosures');

  ensure(kbJwt && (await keyBindingHolds(sdJwt, presentation, expected, now)), 'keyBinding');
  const statusList = await statusLists.check(payload.status as Parameters<StatusListCheck['check']>[0], expected);

  const claims = await sdJwt.getClaims<Payload>(hasher);
  return {
    issuer: payload.iss as string,
    vct: payload.vct as string,
    claims,
    report: { issuerSignature: 'valid', chain: 'trusted', disclosures: 'valid', keyBinding: 'valid', statusList },
  };
}

/**
 * Every disclosure's digest is named once by the signed payload or by a disclosure it names (RFC 9901,
 * 7.1): the library resolves disclosures by digest and drops one nobody names, so a tampered
 * disclosure would vanish silently instead of failing; this walk makes it fail.
 */
async function everyDisclosureReferenced(sdJwt: SDJwt<Payload, Payload>): Promise<boolean> {
  const disclosures = sdJwt.disclosures ?? [];
  const alg = typeof sdJwt.jwt?.payload?._sd_alg === 'string' ? sdJwt.jwt.payload._sd_alg : 'sha-256';
  const byDigest = new Map<string, unknown>();
  for (const disclosure of disclosures) {
    const digested = await disclosure.digest({ hasher, alg });
    if (byDigest.has(digested)) return false;
    byDigest.set(digested, disclosure.value);
  }
  const referenced = new Set<string>();
  const walk = (node: unknown, depth: number): void => {
    if (depth > 20 || node === null || typeof node !== 'object') return;
    const digests = Array.isArray(node)
      ? node.map((item) => (item && typeof item === 'object' && '...' in item ? (item as Record<string, unknown>)['...'] : undefined))
      : Array.isArray((node as Payload)._sd)
        ? ((node as Payload)._sd as unknown[])
        : [];
    for (const named of digests) {
      if (typeof named !== 'string' || !byDigest.has(named) || referenced.has(named)) continue;
      referenced.add(named);
      walk(byDigest.get(named), depth + 1);
    }
    for (const value of Object.values(node)) walk(value, depth + 1);
  };
  walk(sdJwt.jwt?.payload, 0);
  return referenced.size === byDigest.size;
}

/**
 * The key-binding JWT (RFC 9901, 4.3 and 7.3): `typ kb+jwt`, signed by the credential's `cnf.jwk`, for
 * this verifier (`aud` = the client_id) and this session (`nonce`), made within the window, and over
 * exactly this presentation (`sd_hash`). The library checks the shape, the signature and the nonce.
 */
async function keyBindingHolds(sdJwt: SDJwt<Payload, Payload>, presentation: string, expected: PresentationExpectations, now: number) {
  const kb = sdJwt.kbJwt!;
  const cnf = sdJwt.jwt!.payload!.cnf as { jwk?: JWK } | undefined;
  const alg = typeof kb.header?.alg === 'string' ? kb.header.alg : '';
  if (!cnf?.jwk || !SIGNING_ALGORITHMS.includes(alg)) return false;
  try {
    const holderKey = await importJWK(cnf.jwk, alg);
    await kb.verifyKB({
      verifier: (data: string, signature: string) => signedBy(`${data}.${signature}`, holderKey, alg),
      payload: sdJwt.jwt!.payload!,
      nonce: expected.nonce,
    });
  } catch {
    return false;
  }
  const { aud, iat, sd_hash: sdHash } = kb.payload as Payload;
  const withoutKb = presentation.slice(0, presentation.lastIndexOf('~') + 1);
  const sdAlg = typeof sdJwt.jwt!.payload!._sd_alg === 'string' ? sdJwt.jwt!.payload!._sd_alg : 'sha-256';
  const expectedHash = Buffer.from(hasher(withoutKb, sdAlg)).toString('base64url');
  return (
    aud === expected.clientId &&
    typeof iat === 'number' &&
    Math.abs(now - iat) <= KB_IAT_WINDOW_S &&
    typeof sdHash === 'string' &&
    constantTimeEqual(sdHash, expectedHash)
  );
}
