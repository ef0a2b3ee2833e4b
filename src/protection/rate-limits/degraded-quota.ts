import type { KeyLimits, QuotaUsage } from './quota.store.js';

/** Keys whose shared counts a process remembers; past this the longest-known is forgotten (it then starts from zero). */
const MAX_KEYS = 100_000;
/** Addresses per key remembered as known to the shared store (an IP limit is a handful in practice). */
const MAX_KNOWN_ADDRESSES = 1_000;

/** What one process admitted on its own for a key, to hand to the shared store when it returns. */
export interface DegradedAdmissions {
  apiKeyId: string;
  /** Admissions in the minute ending now (the 61 one-second buckets). */
  minute: number;
  month: number;
  monthCount: number;
  /** Addresses first admitted on their own, to join the key's set of the month. */
  addresses: string[];
}

interface KeyCounts {
  /** The shared store's last answer: counting goes on from it, never from zero. */
  sharedSecond: number;
  sharedRecent: number;
  month: number;
  sharedMonth: number;
  sharedAddresses: number;
  known: Set<string>;
  /** This process's own admissions since the store went away: epoch second -> admissions. */
  buckets: Map<number, number>;
  ownMonth: number;
  ownAddresses: Set<string>;
}

const secondOf = (now: Date): number => Math.floor(now.getTime() / 1000);
const monthOf = (now: Date): number => now.getUTCFullYear() * 100 + now.getUTCMonth() + 1;

/**
 * The degraded mode of the Redis store (docs/protection.md, "When Redis is away"): while Redis does
 * not answer, each process decides a key's limits alone, with the same rules (61 one-second buckets,
 * the calendar month, the month's addresses), each process admitting at most the key's full limit.
 * Counting starts from the shared counts this process last saw for the key, so an outage does not
 * hand every key a fresh minute and month.
 */
export class DegradedQuota {
  private readonly keys = new Map<string, KeyCounts>();

  /** Takes in a shared answer: where this key's counting starts should the store go away. */
  remember(apiKeyId: string, address: string, now: Date, usage: QuotaUsage): void {
    const counts = this.countsOf(apiKeyId, now);
    counts.sharedSecond = secondOf(now);
    counts.sharedRecent = usage.recentCount;
    counts.sharedMonth = usage.monthCount;
    counts.sharedAddresses = usage.addressCount;
    if (usage.addressKnown && counts.known.size < MAX_KNOWN_ADDRESSES) counts.known.add(address);
  }

  /** Decides and records one request in this process alone. */
  consume(apiKeyId: string, address: string, now: Date, limits: KeyLimits): QuotaUsage {
    const counts = this.countsOf(apiKeyId, now);
    const second = secondOf(now);
    let recent = 0;
    let oldest = second;
    if (counts.sharedSecond > second - 61 && counts.sharedRecent > 0) {
      recent += counts.sharedRecent;
      oldest = Math.min(oldest, counts.sharedSecond);
    }
    for (const [bucket, n] of counts.buckets) {
      if (bucket <= second - 61) counts.buckets.delete(bucket);
      else {
        recent += n;
        oldest = Math.min(oldest, bucket);
      }
    }
    const monthCount = counts.sharedMonth + counts.ownMonth;
    const known = counts.known.has(address) || counts.ownAddresses.has(address);
    const addressCount = counts.sharedAddresses + counts.ownAddresses.size;
    const accepted =
      (limits.perMinute === null || recent < limits.perMinute) &&
      (limits.monthly === null || monthCount < limits.monthly) &&
      (limits.addresses === null || known || addressCount < limits.addresses);
    if (accepted) {
      counts.buckets.set(second, (counts.buckets.get(second) ?? 0) + 1);
      counts.ownMonth += 1;
      if (limits.addresses !== null && !known) counts.ownAddresses.add(address);
    }
    return {
      accepted,
      recentCount: accepted ? recent + 1 : recent,
      minuteFreesAt: new Date((oldest + 61) * 1000),
      monthCount: accepted ? monthCount + 1 : monthCount,
      addressCount: accepted && limits.addresses !== null && !known ? addressCount + 1 : addressCount,
      addressKnown: known || (accepted && limits.addresses !== null),
    };
  }

  /** This process's own admissions of every key, handed over once the store is back, and forgotten here. */
  takeAdmissions(now: Date): DegradedAdmissions[] {
    const second = secondOf(now);
    const handed: DegradedAdmissions[] = [];
    for (const [apiKeyId, counts] of this.keys) {
      if (counts.ownMonth === 0) continue;
      let minute = 0;
      for (const [bucket, n] of counts.buckets) if (bucket > second - 61) minute += n;
      handed.push({ apiKeyId, minute, month: counts.month, monthCount: counts.ownMonth, addresses: [...counts.ownAddresses] });
      counts.buckets.clear();
      counts.ownMonth = 0;
      counts.ownAddresses.clear();
    }
    return handed;
  }

  private countsOf(apiKeyId: string, now: Date): KeyCounts {
    const month = monthOf(now);
    let counts = this.keys.get(apiKeyId);
    if (!counts || counts.month < month) {
      // A new month starts the month's counts over; the minute carries on.
      const fresh: KeyCounts = {
        sharedSecond: counts?.sharedSecond ?? 0,
        sharedRecent: counts?.sharedRecent ?? 0,
        month,
        sharedMonth: 0,
        sharedAddresses: 0,
        known: new Set(),
        buckets: counts?.buckets ?? new Map<number, number>(),
        ownMonth: 0,
        ownAddresses: new Set(),
      };
      if (!counts && this.keys.size >= MAX_KEYS) this.keys.delete(this.keys.keys().next().value!);
      this.keys.set(apiKeyId, fresh);
      counts = fresh;
    }
    return counts;
  }
}
