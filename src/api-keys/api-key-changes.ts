/**
 * Tells every replica that an API key changed (revoked, blocked), so each drops its cached copy
 * within a second (docs/security.md, the key cache): PostgreSQL LISTEN/NOTIFY by default, Redis
 * pub/sub when REDIS_URL is set.
 *
 * `generation` moves on every change heard and whenever the feed is (re)connected or lost. A lookup
 * reads it before asking the database and caches its answer only if it has not moved and the feed
 * is live: a lookup that raced a revocation can never put the revoked key back.
 */
export abstract class ApiKeyChanges {
  private generationCount = 0;
  private listener: ((apiKeyId: string | null) => void) | null = null;

  get generation(): number {
    return this.generationCount;
  }

  /** True while changes from other replicas are heard; the cache is used only then. */
  abstract get live(): boolean;

  /** Announces a committed change of the key to every replica, this one included. */
  abstract publish(apiKeyId: string): Promise<void>;

  /** Starts hearing changes (on first use: the command line never needs to). */
  abstract listen(): void;

  /** `apiKeyId` null: anything may have changed (the feed was lost or came back). */
  onChange(listener: (apiKeyId: string | null) => void): void {
    this.listener = listener;
  }

  protected changed(apiKeyId: string | null): void {
    this.generationCount++;
    this.listener?.(apiKeyId);
  }
}

/** The channel name, shared by both transports. */
export const API_KEY_CHANGES_CHANNEL = 'eidgw_api_key_changed';
