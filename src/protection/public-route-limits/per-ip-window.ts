// Addresses counted per window at most: memory stays bounded whatever the number of addresses.
export const MAX_ADDRESSES = 100_000;

/**
 * Requests per client address in fixed one-minute windows, in this process's memory. For the anonymous
 * routes only (docs/protection.md, "Per-address limits"): a check costs a map lookup and no round trip.
 * Only the current window is kept (earlier ones no longer count), so a new window drops the old map
 * whole instead of scanning it.
 */
export class PerIpWindow {
  private counts = new Map<string, number>();
  private window = Number.NaN;

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  /** How many addresses the current window counts. */
  get size(): number {
    return this.counts.size;
  }

  /**
   * Counts one request; the seconds until the address may try again when it is over the limit, else
   * null. `limit` overrides the window's own for callers whose limit differs per key (a client's plan).
   */
  take(address: string, nowMs: number, limit = this.limit): number | null {
    const window = Math.floor(nowMs / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
    }
    const count = this.counts.get(address);
    if (count === undefined) {
      // Full: a new address is admitted uncounted rather than refused or let grow the map. Reaching this
      // takes MAX_ADDRESSES addresses (IPv6 /64s) in one minute; known ones stay limited (docs/protection.md).
      if (this.counts.size < MAX_ADDRESSES) this.counts.set(address, 1);
      return null;
    }
    if (count >= limit) return Math.max(1, Math.ceil(((window + 1) * this.windowMs - nowMs) / 1000));
    this.counts.set(address, count + 1);
    return null;
  }
}
