import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';

// Typed like the result token (RFC 8725 section 3.11), so neither passes for the other.
export const TREE_HEAD_TYPE = 'eidgw-sth+jwt';
export const TREE_HEAD_ALGORITHM = 'ES256';

/** What a signed tree head states (docs/transparency.md): RFC 9162's tree size, root hash and timestamp. */
export interface TreeHeadClaims {
  treeSize: number;
  /** Lower-case hex of the 32-byte root hash. */
  rootHash: string;
  /** Milliseconds since the epoch, as RFC 9162's timestamp. */
  timestamp: number;
}

/** A tree head's claims once its signature holds against `keys`; throws otherwise. Offline: no key is fetched. */
export async function verifyTreeHead(jws: string, keys: JSONWebKeySet): Promise<TreeHeadClaims & { iss?: string; kid?: string }> {
  const { payload, protectedHeader } = await jwtVerify(jws, createLocalJWKSet(keys), {
    typ: TREE_HEAD_TYPE,
    algorithms: [TREE_HEAD_ALGORITHM],
  });
  const { treeSize, rootHash, timestamp } = payload;
  if (!Number.isSafeInteger(treeSize) || (treeSize as number) < 0) throw new Error('The tree head has no valid treeSize');
  if (typeof rootHash !== 'string' || !/^[0-9a-f]{64}$/.test(rootHash)) throw new Error('The tree head has no valid rootHash');
  if (!Number.isSafeInteger(timestamp)) throw new Error('The tree head has no valid timestamp');
  return { treeSize: treeSize as number, rootHash, timestamp: timestamp as number, iss: payload.iss, kid: protectedHeader.kid };
}
