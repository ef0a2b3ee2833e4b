/** A key's use is noted at most once a minute per process: the precision of lastUsedAt (docs/security.md, "Last used"). */
export const LAST_USE_PRECISION_MS = 60_000;

/**
 * The uses of API keys one process has noted and not yet written. Noting costs a map lookup and no
 * I/O, so it can sit on the request path; a flush takes the batch and writes it in one statement.
 */
export class LastUseBatch {
  /** Per key, when its last noted use was: later uses within the minute are not noted. */
  private readonly noted = new Map<string, number>();
  private pending = new Map<string, Date>();

  /** Notes a use, unless one of the same key was noted less than a minute before. */
  note(apiKeyId: string, now: Date): void {
    const last = this.noted.get(apiKeyId);
    if (last !== undefined && now.getTime() - last < LAST_USE_PRECISION_MS) return;
    this.noted.set(apiKeyId, now.getTime());
    this.pending.set(apiKeyId, now);
  }

  /** The uses noted since the last take. Notes a minute old hold nothing back any more and are forgotten, so memory follows traffic. */
  take(now: Date): Map<string, Date> {
    const taken = this.pending;
    this.pending = new Map();
    for (const [apiKeyId, at] of this.noted) if (now.getTime() - at >= LAST_USE_PRECISION_MS) this.noted.delete(apiKeyId);
    return taken;
  }

  /** Puts back uses whose write failed, for the next take; a use of the same key noted since is newer and stays. */
  putBack(uses: Map<string, Date>): void {
    for (const [apiKeyId, at] of uses) if (!this.pending.has(apiKeyId)) this.pending.set(apiKeyId, at);
  }
}
