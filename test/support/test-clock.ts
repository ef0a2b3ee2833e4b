import { Clock } from '../../src/common/clock/clock.js';

/** A clock tests stop and move by hand, so expiry and QR frames are tested without sleeping. */
export class TestClock extends Clock {
  private frozenAt: number | null = null;
  private offsetMs = 0;

  now(): Date {
    return new Date((this.frozenAt ?? Date.now()) + this.offsetMs);
  }

  /** Stops time (at a whole second by default, so QR frame boundaries are predictable). */
  freeze(at = Math.ceil(Date.now() / 1000) * 1000): void {
    this.frozenAt = at;
    this.offsetMs = 0;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
