import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares two secrets in time independent of where they differ (and of their lengths). */
export function constantTimeEqual(a: string | Buffer, b: string | Buffer): boolean {
  // Hashing first gives equal-length inputs, so timingSafeEqual never throws or leaks the length.
  const digest = (v: string | Buffer) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(a), digest(b));
}

export const sha256 = (value: string | Buffer): Buffer => createHash('sha256').update(value).digest();
