import {
  consistencyRanges,
  foldSubtrees,
  inclusionRanges,
  leafHash,
  subtreesOf,
  verifyConsistency,
  verifyInclusion,
  type LeafRange,
} from './merkle.js';
import { mth, path, refLeaf, rootFromPath, rootsFromConsistency, subproof } from '../../test/support/rfc9162-reference.js';

/** The module's view of a tree: every complete subtree's hash, as the log stores them. */
function hashOf(entries: Buffer[]) {
  const leaves = entries.map(leafHash);
  const subtree = ({ level, index }: { level: number; index: number }) => {
    const width = 2 ** level;
    return width === 1 ? leaves[index] : mth(entries.slice(index * width, (index + 1) * width));
  };
  return (range: LeafRange) => foldSubtrees(subtreesOf(range).map(subtree));
}

// The Certificate Transparency reference leaves and roots (transparency-dev/merkle testonly/constants.go,
// the data of the CT C++ and Go test suites).
const REFERENCE_ENTRIES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map((hex) =>
  Buffer.from(hex, 'hex'),
);
const REFERENCE_ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const REFERENCE_INCLUSION = [
  {
    index: 0,
    size: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    index: 5,
    size: 8,
    proof: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
];

const hex = (hashes: Buffer[]) => hashes.map((hash) => hash.toString('hex'));

describe('RFC 9162 Merkle tree', () => {
  const hash = hashOf(REFERENCE_ENTRIES);

  it('should give the reference roots for every size, as the reference definition does', () => {
    for (let size = 0; size <= REFERENCE_ENTRIES.length; size++) {
      expect(mth(REFERENCE_ENTRIES.slice(0, size)).toString('hex')).toBe(REFERENCE_ROOTS[size]);
      expect(hash({ start: 0, size }).toString('hex')).toBe(REFERENCE_ROOTS[size]);
    }
  });

  it('should give the reference inclusion proofs', () => {
    for (const { index, size, proof } of REFERENCE_INCLUSION) {
      expect(hex(inclusionRanges(index, size).map(hash))).toEqual(proof);
      expect(hex(path(index, REFERENCE_ENTRIES.slice(0, size)))).toEqual(proof);
    }
  });

  // Every size up to 37 reaches every shape of the recursion (powers of two, one past them, odd tails).
  const entries = Array.from({ length: 37 }, (_, i) => Buffer.from(`result token ${i}`));
  const manyHash = hashOf(entries);

  it('should prove every leaf of every tree size, as the reference does, and the proofs should verify', () => {
    for (let size = 1; size <= entries.length; size++) {
      const tree = entries.slice(0, size);
      const root = mth(tree);
      for (let index = 0; index < size; index++) {
        const proof = inclusionRanges(index, size).map(manyHash);
        expect(hex(proof)).toEqual(hex(path(index, tree)));
        expect(rootFromPath(index, size, refLeaf(tree[index]), proof)?.equals(root)).toBe(true);
        expect(verifyInclusion(refLeaf(tree[index]), index, size, proof, root)).toBe(true);
      }
    }
  });

  it('should prove every pair of sizes consistent, as the reference does, and the proofs should verify', () => {
    for (let to = 1; to <= entries.length; to++) {
      const toRoot = mth(entries.slice(0, to));
      for (let from = 1; from <= to; from++) {
        const fromRoot = mth(entries.slice(0, from));
        const proof = consistencyRanges(from, to).map(manyHash);
        expect(hex(proof)).toEqual(hex(subproof(from, entries.slice(0, to), true)));
        const roots = rootsFromConsistency(from, to, proof, true, fromRoot);
        expect(roots && [roots[0].equals(fromRoot), roots[1].equals(toRoot)]).toEqual([true, true]);
        expect(verifyConsistency(from, to, proof, fromRoot, toRoot)).toBe(true);
      }
    }
  });

  it('should refuse a proof with a changed hash, index, size or root', () => {
    const size = 21;
    const root = mth(entries.slice(0, size));
    const proof = inclusionRanges(13, size).map(manyHash);
    const leaf = refLeaf(entries[13]);
    const changed = proof.map((p, i) => (i === 2 ? Buffer.from(p).fill(7, 0, 1) : p));
    expect(verifyInclusion(leaf, 13, size, changed, root)).toBe(false);
    expect(verifyInclusion(leaf, 12, size, proof, root)).toBe(false);
    // Sizes from 17 to 32 share this proof's shape: the signed tree head is what pins the size.
    expect(verifyInclusion(leaf, 13, 16, proof, root)).toBe(false);
    expect(verifyInclusion(leaf, 13, size, proof, mth(entries.slice(0, size - 1)))).toBe(false);
    expect(verifyInclusion(leaf, 13, size, proof.slice(1), root)).toBe(false);

    const from = 11;
    const fromRoot = mth(entries.slice(0, from));
    const consistency = consistencyRanges(from, size).map(manyHash);
    expect(verifyConsistency(from, size, consistency.slice(0, -1), fromRoot, root)).toBe(false);
    expect(verifyConsistency(from, size, consistency, mth(entries.slice(0, from + 1)), root)).toBe(false);
    expect(verifyConsistency(from + 1, size, consistency, fromRoot, root)).toBe(false);
    expect(verifyConsistency(from, size, [], fromRoot, root)).toBe(false);
  });
});
