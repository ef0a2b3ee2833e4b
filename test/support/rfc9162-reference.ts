import { createHash } from 'node:crypto';

// An independent reference written from RFC 9162's definitions (recursive, over the whole leaf list),
// so that src/transparency's iterative, subtree-based algorithms are checked against something else.
// Nothing here imports the code under test.

export const sha256 = (...parts: Uint8Array[]) => parts.reduce((hash, part) => hash.update(part), createHash('sha256')).digest();
export const refLeaf = (d: Uint8Array) => sha256(Buffer.of(0), d);
export const refNode = (l: Uint8Array, r: Uint8Array) => sha256(Buffer.of(1), l, r);
export const refSplit = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1);
export function mth(d: Buffer[]): Buffer {
  if (d.length === 0) return sha256();
  if (d.length === 1) return refLeaf(d[0]);
  const k = refSplit(d.length);
  return refNode(mth(d.slice(0, k)), mth(d.slice(k)));
}
export function path(m: number, d: Buffer[]): Buffer[] {
  if (d.length <= 1) return [];
  const k = refSplit(d.length);
  return m < k ? [...path(m, d.slice(0, k)), mth(d.slice(k))] : [...path(m - k, d.slice(k)), mth(d.slice(0, k))];
}
export function subproof(m: number, d: Buffer[], b: boolean): Buffer[] {
  if (m === d.length) return b ? [] : [mth(d)];
  const k = refSplit(d.length);
  return m <= k ? [...subproof(m, d.slice(0, k), b), mth(d.slice(k))] : [...subproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
}
// The verifiers walk the tree's shape recursively instead of RFC 9162's bit arithmetic.
export function rootFromPath(index: number, size: number, leaf: Buffer, proof: Buffer[]): Buffer | null {
  if (size === 1) return proof.length === 0 ? leaf : null;
  if (proof.length === 0) return null;
  const k = refSplit(size);
  const sibling = proof[proof.length - 1];
  const rest = proof.slice(0, -1);
  if (index < k) {
    const left = rootFromPath(index, k, leaf, rest);
    return left && refNode(left, sibling);
  }
  const right = rootFromPath(index - k, size - k, leaf, rest);
  return right && refNode(sibling, right);
}
export function rootsFromConsistency(m: number, n: number, proof: Buffer[], whole: boolean, oldRoot: Buffer): [Buffer, Buffer] | null {
  if (m === n) {
    if (whole) return proof.length === 0 ? [oldRoot, oldRoot] : null;
    return proof.length === 1 ? [proof[0], proof[0]] : null;
  }
  if (proof.length === 0) return null;
  const k = refSplit(n);
  const last = proof[proof.length - 1];
  const rest = proof.slice(0, -1);
  if (m <= k) {
    const roots = rootsFromConsistency(m, k, rest, whole, oldRoot);
    return roots && [roots[0], refNode(roots[1], last)];
  }
  const roots = rootsFromConsistency(m - k, n - k, rest, false, oldRoot);
  return roots && [refNode(last, roots[0]), refNode(last, roots[1])];
}

const unhex = (hashes: string[]) => hashes.map((hash) => Buffer.from(hash, 'hex'));

/** A token's leaf hash: RFC 9162's leaf of the token's SHA-256 (docs/transparency.md), hex. */
export const tokenLeafHex = (token: string) => refLeaf(sha256(Buffer.from(token, 'ascii'))).toString('hex');

/** An inclusion proof answer (hex) checked against a root (hex), by the recursive reference. */
export function inclusionHolds(leafHex: string, index: number, size: number, proof: string[], rootHex: string): boolean {
  return rootFromPath(index, size, Buffer.from(leafHex, 'hex'), unhex(proof))?.toString('hex') === rootHex;
}

/** A consistency proof answer (hex) checked against both roots (hex), by the recursive reference. */
export function consistencyHolds(from: number, to: number, proof: string[], fromRootHex: string, toRootHex: string): boolean {
  const roots = rootsFromConsistency(from, to, unhex(proof), true, Buffer.from(fromRootHex, 'hex'));
  return roots !== null && roots[0].toString('hex') === fromRootHex && roots[1].toString('hex') === toRootHex;
}
