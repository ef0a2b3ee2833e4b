/** A key's limits; null is unlimited (docs/protection.md). */
export interface KeyLimits {
  perMinute: number | null;
  monthly: number | null;
  /** Distinct client addresses per calendar month (UTC). */
  addresses: number | null;
}

/** What the store saw and did for one request, after deciding it atomically. */
export interface QuotaUsage {
  /** True when every limit allowed the request; only then was it recorded. */
  accepted: boolean;
  /** Accepted requests in the 60 s window ending now (this one included when accepted). */
  recentCount: number;
  /** The oldest of those; the window frees a place 60 s after it. */
  oldestRecent: Date | null;
  /** Accepted requests this calendar month (UTC). */
  monthCount: number;
  /** Distinct client addresses this month (tracked only while the key has an IP limit). */
  addressCount: number;
  /** Whether the request's address is (now) one of them. */
  addressKnown: boolean;
}

/** Where usage lives: PostgreSQL by default, Redis when REDIS_URL is set; same semantics in both. */
export abstract class QuotaStore {
  /** Decides and records one request against every limit at once: all pass and it counts, or it does not. */
  abstract consume(apiKeyId: string, address: string, now: Date, limits: KeyLimits): Promise<QuotaUsage>;
}
