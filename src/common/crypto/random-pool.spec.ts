import { pooledRandomBytes } from './random-pool.js';

describe('pooledRandomBytes', () => {
  it('hands out each byte once, across refills of the pool', () => {
    // 1,000 draws of 12 bytes span three fills of the 4 KiB pool; a repeated 12-byte value would mean reuse.
    const seen = new Set(Array.from({ length: 1_000 }, () => pooledRandomBytes(12).toString('hex')));
    expect(seen.size).toBe(1_000);
  });

  it('leaves a value handed out as it was when the pool refills', () => {
    const iv = pooledRandomBytes(12);
    const kept = Buffer.from(iv);
    for (let i = 0; i < 1_000; i++) pooledRandomBytes(16);
    expect(iv.equals(kept)).toBe(true);
  });

  it('serves a request larger than the pool directly', () => {
    const big = pooledRandomBytes(5_000);
    expect(big).toHaveLength(5_000);
    expect(big.equals(Buffer.alloc(5_000))).toBe(false);
  });
});
