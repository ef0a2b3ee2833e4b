import { calculateJwkThumbprint, createLocalJWKSet, importJWK, jwtVerify, type JSONWebKeySet, type JWK, type JWTPayload } from 'jose';
import { RESULT_TOKEN_TYPE } from '../tokens/result-token-signer.js';
import { BUNDLE_FORMAT, evidenceDigest, REPORT_TYPE, sha256Hex, type BundleInclusion } from './evidence-bundle.js';
import { verifyInclusion } from './merkle.js';
import { resultTokenLeaf } from './result-token-leaf.js';
import { verifyTreeHead, type TreeHeadClaims } from './tree-head.js';

/** The parts of a bundle, each checked and named on its own (docs/transparency.md, "Verifying a bundle"). */
export type BundlePart =
  'format' | 'jwks' | 'resultToken' | 'sessionId' | 'evidence' | 'verificationReport' | 'treeHead' | 'inclusionProof';

export interface PartCheck {
  part: BundlePart;
  ok: boolean;
  detail: string;
}

export interface BundleVerdict {
  valid: boolean;
  checks: PartCheck[];
  /** The outcome the token states, once its signature holds. */
  result?: {
    sessionId: unknown;
    team: unknown;
    issuer: unknown;
    status: unknown;
    provider: unknown;
    operation: unknown;
    completedAt: unknown;
  };
  /** What the service's check of the evidence found, once the report's signature holds. */
  evidenceVerification?: unknown;
  treeHead?: { treeSize: number; rootHash: string; signedAt: string };
}

export interface VerifyOptions {
  /** A fresh proof (GET /transparency/proof) that replaces the bundle's, e.g. against a later tree head. */
  proof?: unknown;
  /** More keys to accept (a later /.well-known/jwks.json that signed the fresh proof's tree head). */
  extraKeys?: JSONWebKeySet;
}

const HASH = /^[0-9a-f]{64}$/;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Checks a bundle offline: no network, no service, only the keys it carries (and any the caller adds).
 * Every part is checked even when an earlier one failed, so a report names each part that does not hold.
 */
export async function verifyBundle(bundle: unknown, options: VerifyOptions = {}): Promise<BundleVerdict> {
  const checks: PartCheck[] = [];
  const check = (part: BundlePart, ok: boolean, detail: string) => checks.push({ part, ok, detail });
  const verdict: BundleVerdict = { valid: false, checks };
  if (!isObject(bundle)) {
    check('format', false, 'not a JSON object');
    return verdict;
  }
  check(
    'format',
    bundle.format === BUNDLE_FORMAT,
    bundle.format === BUNDLE_FORMAT ? BUNDLE_FORMAT : `unknown format ${String(bundle.format)}`,
  );

  const keys = await checkKeys(bundle.jwks, options.extraKeys, check);

  const token = typeof bundle.resultToken === 'string' ? bundle.resultToken : '';
  const claims = await verified(token, keys, RESULT_TOKEN_TYPE);
  check('resultToken', claims.ok, claims.ok ? `signed by ${claims.kid}` : claims.detail);
  // What does not hold about the evidence, against the token's seal and against the report's digest.
  const evidenceProblems: string[] = [];
  let sealedBy = '';
  if (claims.ok) {
    const { payload } = claims;
    verdict.result = {
      sessionId: payload.sub,
      team: payload.aud,
      issuer: payload.iss,
      status: payload.status,
      provider: payload.provider,
      operation: payload.operation,
      completedAt: payload.completedAt,
    };
    const sameSession = bundle.sessionId === payload.sub;
    check('sessionId', sameSession, sameSession ? String(payload.sub) : 'differs from the subject of the result token');
    if (payload.evidenceSha256 !== undefined) {
      sealedBy = sealedMember(payload.evidenceSha256, bundle.evidence) ?? '';
      if (!sealedBy) evidenceProblems.push("no member is what the result token's evidenceSha256 seals");
    }
  }

  const report = await verified(typeof bundle.verificationReport === 'string' ? bundle.verificationReport : '', keys, REPORT_TYPE);
  if (!report.ok) check('verificationReport', false, report.detail);
  else {
    const { payload } = report;
    verdict.evidenceVerification = payload.verification;
    // A token that does not verify is reported as such; the report is then not held against it.
    const ofToken = !claims.ok || payload.resultTokenSha256 === sha256Hex(token);
    check('verificationReport', ofToken, ofToken ? `signed by ${report.kid}` : 'is of another result token');
    const digest = isObject(bundle.evidence) ? evidenceDigest(bundle.evidence) : null;
    if (digest !== (payload.evidenceSha256 ?? null)) evidenceProblems.push('differs from the evidence the verification report was made of');
  }
  const evidenceDetail = sealedBy ? `${sealedBy} is what the result token seals` : isObject(bundle.evidence) ? 'as reported' : 'none';
  check('evidence', evidenceProblems.length === 0, evidenceProblems.length === 0 ? evidenceDetail : evidenceProblems.join('; '));

  const inclusion = (options.proof ?? bundle.transparency) as Partial<BundleInclusion> | undefined;
  const { head, signed } = await checkTreeHead(inclusion, keys, check);
  if (head && signed)
    verdict.treeHead = { treeSize: head.treeSize, rootHash: head.rootHash, signedAt: new Date(head.timestamp).toISOString() };
  checkInclusion(inclusion, claims.ok ? token : null, head, check);

  verdict.valid = checks.every((c) => c.ok);
  return verdict;
}

/** Every key must be whole: its kid is its RFC 7638 thumbprint (so a changed byte shows), and it imports. */
async function checkKeys(jwks: unknown, extra: JSONWebKeySet | undefined, check: (part: BundlePart, ok: boolean, detail: string) => void) {
  const keys = isObject(jwks) && Array.isArray(jwks.keys) ? (jwks.keys as JWK[]) : null;
  if (!keys) {
    check('jwks', false, 'not a JWK set');
    return { keys: extra?.keys ?? [] };
  }
  const broken: string[] = [];
  for (const key of keys) {
    try {
      if (key.use !== undefined && key.use !== 'sig') throw new Error('not a signing key');
      await importJWK(key, key.alg);
      if ((await calculateJwkThumbprint(key)) !== key.kid) throw new Error('kid is not its thumbprint');
    } catch (error) {
      broken.push(`${String(key.kid)}: ${reason(error)}`);
    }
  }
  check('jwks', broken.length === 0, broken.length === 0 ? `${keys.length} keys` : broken.join('; '));
  return { keys: [...keys, ...(extra?.keys ?? [])] };
}

type Verified = { ok: true; payload: JWTPayload; kid?: string } | { ok: false; detail: string };

async function verified(jws: string, keys: JSONWebKeySet, typ: string): Promise<Verified> {
  try {
    const { payload, protectedHeader } = await jwtVerify(jws, createLocalJWKSet(keys), { typ, algorithms: ['ES256'] });
    return { ok: true, payload, kid: protectedHeader.kid };
  } catch (error) {
    return { ok: false, detail: `signature does not verify against the bundled keys (${reason(error)})` };
  }
}

/**
 * The raw member the token's evidenceSha256 seals (docs/evidence.md): the SHA-256 of its base64-decoded
 * bytes (BankID's signature) or of its UTF-8 text (a JWS, an id token); undefined when none is.
 */
function sealedMember(sealed: unknown, evidence: unknown): string | undefined {
  if (!isObject(evidence)) return undefined;
  const match = Object.entries(evidence).find(
    ([, value]) =>
      typeof value === 'string' && (sha256Hex(Buffer.from(value, 'base64')) === sealed || sha256Hex(Buffer.from(value, 'utf8')) === sealed),
  );
  return match?.[0];
}

async function checkTreeHead(
  inclusion: Partial<BundleInclusion> | undefined,
  keys: JSONWebKeySet,
  check: (part: BundlePart, ok: boolean, detail: string) => void,
): Promise<{ head: TreeHeadClaims | null; signed: boolean }> {
  const head = inclusion?.treeHead;
  if (!isObject(head) || typeof head.jws !== 'string') {
    check('treeHead', false, 'missing');
    return { head: null, signed: false };
  }
  try {
    const claims = await verifyTreeHead(head.jws, keys);
    // The plain members are copies for reading; they must say what the signature covers.
    const copies = head.treeSize === claims.treeSize && head.rootHash === claims.rootHash;
    check(
      'treeHead',
      copies,
      copies ? `${claims.treeSize} leaves, signed by ${claims.kid}` : 'its members differ from what its signature covers',
    );
    return { head: claims, signed: true };
  } catch (error) {
    check('treeHead', false, `signature does not verify against the bundled keys (${reason(error)})`);
    // The proof is still checked against the root the head states, so that it is judged on its own.
    const { treeSize, rootHash } = head;
    const stated = typeof treeSize === 'number' && typeof rootHash === 'string' && HASH.test(rootHash);
    return { head: stated ? { treeSize, rootHash, timestamp: 0 } : null, signed: false };
  }
}

function checkInclusion(
  inclusion: Partial<BundleInclusion> | undefined,
  /** The verified result token; null when it does not verify (then only the bundled leaf hash is proven). */
  token: string | null,
  head: TreeHeadClaims | null,
  check: (part: BundlePart, ok: boolean, detail: string) => void,
): void {
  const fail = (detail: string) => check('inclusionProof', false, detail);
  if (
    !inclusion ||
    !Array.isArray(inclusion.inclusionProof) ||
    !inclusion.inclusionProof.every((h) => typeof h === 'string' && HASH.test(h))
  )
    return fail('no proof of hex hashes');
  if (typeof inclusion.leafHash !== 'string' || !HASH.test(inclusion.leafHash)) return fail('no leafHash');
  if (token !== null && inclusion.leafHash !== resultTokenLeaf(token).toString('hex'))
    return fail("leafHash is not the result token's leaf");
  const leaf = Buffer.from(inclusion.leafHash, 'hex');
  if (!head) return fail('no signed tree head to check it against');
  if (inclusion.treeSize !== head.treeSize) return fail('treeSize differs from the signed tree head');
  const index = inclusion.leafIndex;
  if (!Number.isSafeInteger(index)) return fail('no leafIndex');
  const proof = inclusion.inclusionProof.map((h) => Buffer.from(h, 'hex'));
  const ok = verifyInclusion(leaf, index!, head.treeSize, proof, Buffer.from(head.rootHash, 'hex'));
  check('inclusionProof', ok, ok ? `leaf ${index} of ${head.treeSize}` : 'does not lead to the signed root hash');
}
