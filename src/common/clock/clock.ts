/** The time seam: expiry, backoff and QR frames read it, so tests move time instead of sleeping. */
export abstract class Clock {
  abstract now(): Date;

  nowMs(): number {
    return this.now().getTime();
  }
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
