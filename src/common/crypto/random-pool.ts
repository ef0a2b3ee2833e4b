import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/**
 * Random bytes from a buffer OpenSSL's generator fills 4 KiB at a time, as Node's randomUUID does: a
 * call into it costs a system call or more (its fork check), and a start asked for seven values of
 * 12–16 bytes (IVs, the return nonce; docs/performance.md). Each byte is handed out once, as a copy.
 */
export function pooledRandomBytes(size: number): Buffer {
  if (size > POOL_BYTES) return randomFillSync(Buffer.alloc(size));
  if (offset + size > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafeSlow(POOL_BYTES));
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + size));
  offset += size;
  return bytes;
}
