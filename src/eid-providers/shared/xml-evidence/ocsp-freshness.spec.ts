import * as pkijs from 'pkijs';
import { isFreshOcspResponse, OCSP_CLOCK_SKEW_MS, OCSP_PRODUCED_WITHIN_MS } from './ocsp-freshness.js';

const COMPLETED = new Date('2026-11-27T12:00:00Z');
const at = (offsetMs: number) => new Date(COMPLETED.getTime() + offsetMs);
const MINUTE = 60_000;
const single = (thisUpdate: Date, nextUpdate?: Date) => new pkijs.SingleResponse({ thisUpdate, ...(nextUpdate ? { nextUpdate } : {}) });

describe(isFreshOcspResponse.name, () => {
  it('should accept a response whose validity window covers the completion', () => {
    expect(isFreshOcspResponse(single(at(-2 * MINUTE), at(3 * MINUTE)), at(-2 * MINUTE), COMPLETED)).toBe(true);
  });

  it('should accept a long window that covers the completion, though produced long before', () => {
    expect(isFreshOcspResponse(single(at(-60 * MINUTE), at(24 * 60 * MINUTE)), at(-60 * MINUTE), COMPLETED)).toBe(true);
  });

  it('should refuse a response whose window ended before the completion (a genuine response of years ago)', () => {
    const old = new Date('2020-03-01T00:00:00Z');
    expect(isFreshOcspResponse(single(old, new Date('2020-03-08T00:00:00Z')), old, COMPLETED)).toBe(false);
  });

  it("should refuse a response whose window starts after the completion, beyond the clocks' skew", () => {
    expect(isFreshOcspResponse(single(at(OCSP_CLOCK_SKEW_MS + MINUTE), at(60 * MINUTE)), at(OCSP_CLOCK_SKEW_MS + MINUTE), COMPLETED)).toBe(
      false,
    );
    expect(isFreshOcspResponse(single(at(OCSP_CLOCK_SKEW_MS / 2), at(60 * MINUTE)), at(OCSP_CLOCK_SKEW_MS / 2), COMPLETED)).toBe(true);
  });

  it('should accept a response without nextUpdate only when produced within minutes of the completion', () => {
    expect(isFreshOcspResponse(single(at(-MINUTE)), at(-MINUTE), COMPLETED)).toBe(true);
    expect(isFreshOcspResponse(single(at(-MINUTE)), at(-OCSP_PRODUCED_WITHIN_MS - MINUTE), COMPLETED)).toBe(false);
    expect(isFreshOcspResponse(single(at(-MINUTE)), at(OCSP_PRODUCED_WITHIN_MS + MINUTE), COMPLETED)).toBe(false);
  });

  it('should refuse a response produced near the completion that speaks of a window that already ended', () => {
    expect(isFreshOcspResponse(single(at(-60 * MINUTE), at(-30 * MINUTE)), COMPLETED, COMPLETED)).toBe(false);
  });
});
