export interface BlockPolicy {
  /** Failed attempts within `windowMs` that block the address. */
  threshold: number;
  windowMs: number;
  durationMs: number;
}

export interface BlockInForce {
  /** As clientAddressOf() writes it. */
  address: string;
  until: Date;
}

/** Where failed attempts and blocks live: PostgreSQL by default, Redis when REDIS_URL is set. */
export abstract class IpBlockStore {
  /** False while the store is known to be away (Redis disconnected): checks then keep to their copy. */
  get reachable(): boolean {
    return true;
  }

  /** When the address's block ends, or null when it is not blocked at `now`. */
  abstract blockedUntil(address: string, now: Date): Promise<Date | null>;

  /** Every block in force at `now`, for the per-process copy that makes the check free. */
  abstract blocksInForce(now: Date): Promise<BlockInForce[]>;

  /** Counts one failed attempt atomically; answers when the address's block ends if it is now blocked. */
  abstract recordFailure(address: string, now: Date, policy: BlockPolicy): Promise<Date | null>;

  /** Deletes state that no longer matters; returns how many entries went. */
  abstract purgeExpired(now: Date): Promise<number>;
}
