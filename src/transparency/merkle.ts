import { createHash, timingSafeEqual } from 'node:crypto';

// RFC 9162 section 2.1, glue over node:crypto's SHA-256: the hashing and the proof algorithms are a
// few lines each, and the libraries that ship them (trillian, transparency-dev) are not for Node.

/** Leaves [start, start + size) of the log. */
export interface LeafRange {
  start: number;
  size: number;
}

/** The complete subtree of the 2^level leaves from index * 2^level: the unit the log stores. */
export interface Subtree {
  level: number;
  index: number;
}

const LEAF_PREFIX = Buffer.of(0x00);
const NODE_PREFIX = Buffer.of(0x01);

export const leafHash = (entry: Uint8Array): Buffer => createHash('sha256').update(LEAF_PREFIX).update(entry).digest();

export const nodeHash = (left: Uint8Array, right: Uint8Array): Buffer =>
  createHash('sha256').update(NODE_PREFIX).update(left).update(right).digest();

/** MTH of the empty tree: the hash of the empty string. */
export const EMPTY_ROOT = createHash('sha256').digest();

/** The largest power of two smaller than n (n > 1): where RFC 9162 splits D[n]. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const isPowerOfTwo = (n: number) => n > 0 && 2 ** Math.round(Math.log2(n)) === n;

/**
 * The complete subtrees whose hashes make MTH of a range that RFC 9162's recursion reaches (its start
 * is a multiple of the power of two at or above its size), left to right: the range's hash is their
 * right fold with nodeHash. At most log2(size) + 1 of them.
 */
export function subtreesOf(range: LeafRange): Subtree[] {
  const subtrees: Subtree[] = [];
  let { start, size } = range;
  while (size > 0) {
    const width = isPowerOfTwo(size) ? size : splitPoint(size);
    subtrees.push({ level: Math.log2(width), index: start / width });
    start += width;
    size -= width;
  }
  return subtrees;
}

/** MTH of a range from the hashes of subtreesOf(range), in that order. */
export function foldSubtrees(hashes: readonly Buffer[]): Buffer {
  if (hashes.length === 0) return EMPTY_ROOT;
  let hash = hashes[hashes.length - 1];
  for (let i = hashes.length - 2; i >= 0; i--) hash = nodeHash(hashes[i], hash);
  return hash;
}

/** The ranges whose hashes are the inclusion proof of leaf `index` in the tree of `size` (RFC 9162 2.1.3.1), leaf first. */
export function inclusionRanges(index: number, size: number): LeafRange[] {
  const ranges: LeafRange[] = [];
  let start = 0;
  let n = size;
  let m = index;
  while (n > 1) {
    const k = splitPoint(n);
    if (m < k) {
      ranges.push({ start: start + k, size: n - k });
      n = k;
    } else {
      ranges.push({ start, size: k });
      start += k;
      m -= k;
      n -= k;
    }
  }
  return ranges.reverse();
}

/** The ranges whose hashes are the consistency proof from tree size `from` to `to` (RFC 9162 2.1.4.1, 0 < from <= to). */
export function consistencyRanges(from: number, to: number): LeafRange[] {
  const ranges: LeafRange[] = [];
  let start = 0;
  let m = from;
  let n = to;
  let whole = true;
  while (m !== n) {
    const k = splitPoint(n);
    if (m <= k) {
      ranges.push({ start: start + k, size: n - k });
      n = k;
    } else {
      ranges.push({ start, size: k });
      start += k;
      m -= k;
      n -= k;
      whole = false;
    }
  }
  // The old tree is itself a subtree of the new one only when the recursion never went right.
  if (!whole) ranges.push({ start, size: m });
  return ranges.reverse();
}

const sameHash = (a: Uint8Array, b: Uint8Array) => a.length === b.length && timingSafeEqual(a, b);
const isOdd = (n: bigint) => (n & 1n) === 1n;

/** RFC 9162 2.1.3.2: does `proof` prove leaf `index` (of hash `leaf`) in the tree of `size` whose root is `root`? */
export function verifyInclusion(leaf: Uint8Array, index: number, size: number, proof: readonly Uint8Array[], root: Uint8Array): boolean {
  if (index >= size) return false;
  let fn = BigInt(index);
  let sn = BigInt(size - 1);
  let r: Uint8Array = leaf;
  for (const p of proof) {
    if (sn === 0n) return false;
    if (isOdd(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!isOdd(fn)) {
        while (!isOdd(fn) && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n && sameHash(r, root);
}

/** RFC 9162 2.1.4.2: does `proof` prove the tree of `from` leaves (root `fromRoot`) a prefix of the tree of `to` (root `toRoot`)? */
export function verifyConsistency(
  from: number,
  to: number,
  proof: readonly Uint8Array[],
  fromRoot: Uint8Array,
  toRoot: Uint8Array,
): boolean {
  if (from > to || from < 0) return false;
  if (from === to) return proof.length === 0 && sameHash(fromRoot, toRoot);
  if (from === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(from) ? [fromRoot, ...proof] : [...proof];
  let fn = BigInt(from - 1);
  let sn = BigInt(to - 1);
  while (isOdd(fn)) {
    fn >>= 1n;
    sn >>= 1n;
  }
  let fr: Uint8Array = path[0];
  let sr: Uint8Array = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0n) return false;
    if (isOdd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!isOdd(fn)) {
        while (!isOdd(fn) && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n && sameHash(fr, fromRoot) && sameHash(sr, toRoot);
}
