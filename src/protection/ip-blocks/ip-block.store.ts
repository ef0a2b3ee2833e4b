export interface BlockPolicy {
  /** Failed attempts within `windowMs` that block the address. */
  threshold: number;
  windowMs: number;
  durationMs: number;
}

/** Where failed attempts and blocks live: PostgreSQL by default, Redis when REDIS_URL is set. */
export abstract class IpBlockStore {
  /** When the address's block ends, or null when it is not blocked at `now`. */
  abstract blockedUntil(address: string, now: Date): Promise<Date | null>;

  /** Counts one failed attempt atomically; answers when the address's block ends if it is now blocked. */
  abstract recordFailure(address: string, now: Date, policy: BlockPolicy): Promise<Date | null>;

  /** Deletes state that no longer matters; returns how many entries went. */
  abstract purgeExpired(now: Date): Promise<number>;
}
