import { afterCommit } from '../database/unit-of-work.js';

/**
 * Tells every replica that an API key changed (revoked, blocked), or an OIDC client (changed, its
 * secret rotated, deleted; its `client_id`), so each drops its cached copy within a second
 * (docs/security.md, the key cache; docs/oidc.md, "Registering a client"): PostgreSQL LISTEN/NOTIFY
 * by default, Redis pub/sub when REDIS_URL is set. An API key's id is a UUID and a client_id starts
 * with `eidc_`, so one feed serves both caches.
 *
 * `generation` moves on every change heard and whenever the feed is (re)connected or lost. A lookup
 * reads it before asking the database and caches its answer only if it has not moved and the feed
 * is live: a lookup that raced a revocation can never put the revoked key back.
 */
export abstract class ApiKeyChanges {
  private generationCount = 0;
  private readonly listeners: ((id: string | null) => void)[] = [];

  get generation(): number {
    return this.generationCount;
  }

  /** True while changes from other replicas are heard; the cache is used only then. */
  abstract get live(): boolean;

  /**
   * Announces a change of the key (or client) to every replica, this one included, once it is
   * committed: inside a unit of work (the audited routes', docs/audit.md) only after its commit, so no
   * replica can cache the old row again after hearing of the change.
   */
  publish(id: string): Promise<void> {
    return afterCommit(() => this.send(id));
  }

  protected abstract send(id: string): Promise<void>;

  /** Starts hearing changes (on first use: the command line never needs to). */
  abstract listen(): void;

  /** `id` null: anything may have changed (the feed was lost or came back). */
  onChange(listener: (id: string | null) => void): void {
    this.listeners.push(listener);
  }

  protected changed(id: string | null): void {
    this.generationCount++;
    for (const listener of this.listeners) listener(id);
  }
}

/** The channel name, shared by both transports. */
export const API_KEY_CHANGES_CHANNEL = 'eidgw_api_key_changed';
