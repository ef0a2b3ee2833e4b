import { calculateJwkThumbprint, createLocalJWKSet, importJWK, jwtVerify, type JSONWebKeySet, type JWK, type JWTPayload } from 'jose';
import { RESULT_TOKEN_TYPE } from '../evidence/result-token-signer.js';
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
    checkSealedEvidence(payload.evidenceSha256, bundle.evidence, check);
  }

  const report = await verified(typeof bundle.verificationReport === 'string' ? bundle.verificationReport : '', keys, REPORT_TYPE);
  if (!report.ok) check('verificationReport', false, report.detail);
  else {
    const { payload } = report;
    verdict.evidenceVerification = payload.verification;
    const ofToken = payload.resultTokenSha256 === sha256Hex(token) && payload.sub === bundle.sessionId;
    check('verificationReport', ofToken, ofToken ? `signed by ${report.kid}` : 'is of another result token or session');
    const evidence = isObject(bundle.evidence) ? evidenceDigest(bundle.evidence) : null;
    const sameEvidence = evidence === (payload.evidenceSha256 ?? null);
    if (!sameEvidence) check('evidence', false, 'differs from the evidence the verification report was made of');
    else if (!checks.some((c) => c.part === 'evidence')) check('evidence', true, evidence ? 'as reported' : 'none');
  }

  const inclusion = (options.proof ?? bundle.transparency) as Partial<BundleInclusion> | undefined;
  const head = await checkTreeHead(inclusion, keys, check);
  if (head) verdict.treeHead = { treeSize: head.treeSize, rootHash: head.rootHash, signedAt: new Date(head.timestamp).toISOString() };
  checkInclusion(inclusion, token, head, check);

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
 * The token's evidenceSha256 is the SHA-256 of the provider's signed bytes (docs/evidence.md): one raw
 * member, base64-decoded (BankID's signature) or as UTF-8 text (a JWS, an id token).
 */
function checkSealedEvidence(sealed: unknown, evidence: unknown, check: (part: BundlePart, ok: boolean, detail: string) => void) {
  if (sealed === undefined) return;
  const members = isObject(evidence)
    ? Object.entries(evidence).filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    : [];
  const match = members.find(
    ([, value]) => sha256Hex(Buffer.from(value, 'base64')) === sealed || sha256Hex(Buffer.from(value, 'utf8')) === sealed,
  );
  check(
    'evidence',
    match !== undefined,
    match ? `${match[0]} is what the result token seals` : "no member is what the result token's evidenceSha256 seals",
  );
}

async function checkTreeHead(
  inclusion: Partial<BundleInclusion> | undefined,
  keys: JSONWebKeySet,
  check: (part: BundlePart, ok: boolean, detail: string) => void,
): Promise<TreeHeadClaims | null> {
  const head = inclusion?.treeHead;
  if (!isObject(head) || typeof head.jws !== 'string') {
    check('treeHead', false, 'missing');
    return null;
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
    return claims;
  } catch (error) {
    check('treeHead', false, `signature does not verify against the bundled keys (${reason(error)})`);
    return null;
  }
}

function checkInclusion(
  inclusion: Partial<BundleInclusion> | undefined,
  token: string,
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
  const leaf = resultTokenLeaf(token);
  if (inclusion.leafHash !== leaf.toString('hex')) return fail("leafHash is not the result token's leaf");
  if (!head) return fail('no signed tree head to check it against');
  if (inclusion.treeSize !== head.treeSize) return fail('treeSize differs from the signed tree head');
  const index = inclusion.leafIndex;
  if (!Number.isSafeInteger(index)) return fail('no leafIndex');
  const proof = inclusion.inclusionProof.map((h) => Buffer.from(h, 'hex'));
  const ok = verifyInclusion(leaf, index!, head.treeSize, proof, Buffer.from(head.rootHash, 'hex'));
  check('inclusionProof', ok, ok ? `leaf ${index} of ${head.treeSize}` : 'does not lead to the signed root hash');
}
