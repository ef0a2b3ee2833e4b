/**
 * One value of an async source, reused for `ttlMs`: concurrent callers share the call in flight, and
 * a failure is not kept. For the anonymous routes whose answer may be seconds old (/metrics,
 * /health/ready, /.well-known/jwks.json), so that a flood costs one database round per interval
 * (docs/operations.md).
 */
export class RecentValue<T> {
  private cached?: { value: Promise<T>; at: number };

  constructor(
    private readonly ttlMs: number,
    private readonly produce: () => Promise<T>,
  ) {}

  get(nowMs = Date.now()): Promise<T> {
    if (this.cached && nowMs - this.cached.at < this.ttlMs) return this.cached.value;
    const value = this.produce();
    this.cached = { value, at: nowMs };
    value.catch(() => {
      if (this.cached?.value === value) this.cached = undefined;
    });
    return value;
  }
}
