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
  /** Accepted requests counted in the minute ending now (this one included when accepted). */
  recentCount: number;
  /** When the oldest of those stops counting, giving back a place (docs/protection.md, "Per minute"). */
  minuteFreesAt: Date;
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

  /** True while the store is away and each process counts alone (Redis only; docs/protection.md). */
  get degraded(): boolean {
    return false;
  }

  /** Accepted requests and distinct addresses of each key this calendar month (UTC), for key listings. */
  abstract monthUsage(apiKeyIds: string[], now: Date): Promise<Map<string, MonthUsage>>;
}

export interface MonthUsage {
  requests: number;
  /** Counted only while the key has an IP limit. */
  addresses: number;
}
