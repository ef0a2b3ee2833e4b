// Entries kept at most; past it, those of earlier windows are dropped (they no longer count).
const MAX_ADDRESSES = 100_000;

/**
 * Requests per client address in fixed one-minute windows, in this process's memory. For the anonymous
 * routes only (docs/protection.md, "Per-address limits"): a check costs a map lookup and no round trip.
 */
export class PerIpWindow {
  private readonly counts = new Map<string, { window: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts one request; the seconds until the address may try again when it is over the limit, else null. */
  take(address: string, nowMs: number): number | null {
    const window = Math.floor(nowMs / this.windowMs);
    const entry = this.counts.get(address);
    if (entry && entry.window === window) {
      if (entry.count >= this.limit) return Math.max(1, Math.ceil(((window + 1) * this.windowMs - nowMs) / 1000));
      entry.count++;
      return null;
    }
    if (!entry && this.counts.size >= MAX_ADDRESSES) {
      for (const [key, old] of this.counts) if (old.window !== window) this.counts.delete(key);
    }
    this.counts.set(address, { window, count: 1 });
    return null;
  }
}
