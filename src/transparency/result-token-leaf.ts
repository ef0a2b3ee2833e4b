import { createHash } from 'node:crypto';
import { leafHash } from './merkle.js';

/** The log's entry for a result token: RFC 9162's leaf hash of the token's SHA-256 (docs/transparency.md). */
export function resultTokenLeaf(resultToken: string): Buffer {
  return leafHash(createHash('sha256').update(resultToken, 'ascii').digest());
}
