import type { KeyLimits, QuotaUsage } from './quota.store.js';

export const MINUTE_WINDOW_MS = 60_000;

export type LimitName = 'per_minute' | 'monthly' | 'client_addresses';

interface Policy {
  name: LimitName;
  quota: number;
  remaining: number;
  /** Seconds until the policy gives back quota (sliding window) or renews (month). */
  resetSeconds: number;
  windowSeconds: number;
  refused: boolean;
}

export type RateLimitDecision =
  | { accepted: true; headers: Record<string, string> }
  /** `refusedBy`: the limit that refused the request (the one that lasts longest when several did). */
  | { accepted: false; refusedBy: LimitName; retryAfterSeconds: number; headers: Record<string, string> };

const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

export function startOfNextMonthUtc(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

function policiesOf(limits: KeyLimits, usage: QuotaUsage, now: Date): Policy[] {
  const nowMs = now.getTime();
  const monthEndMs = startOfNextMonthUtc(now).getTime();
  const monthStartMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const monthSeconds = (monthEndMs - monthStartMs) / 1000;
  const policies: Policy[] = [];
  if (limits.perMinute !== null) {
    policies.push({
      name: 'per_minute',
      quota: limits.perMinute,
      remaining: Math.max(0, limits.perMinute - usage.recentCount),
      resetSeconds: seconds(usage.minuteFreesAt.getTime() - nowMs),
      windowSeconds: MINUTE_WINDOW_MS / 1000,
      refused: !usage.accepted && usage.recentCount >= limits.perMinute,
    });
  }
  if (limits.monthly !== null) {
    policies.push({
      name: 'monthly',
      quota: limits.monthly,
      remaining: Math.max(0, limits.monthly - usage.monthCount),
      resetSeconds: seconds(monthEndMs - nowMs),
      windowSeconds: monthSeconds,
      refused: !usage.accepted && usage.monthCount >= limits.monthly,
    });
  }
  if (limits.addresses !== null) {
    policies.push({
      name: 'client_addresses',
      quota: limits.addresses,
      remaining: Math.max(0, limits.addresses - usage.addressCount),
      resetSeconds: seconds(monthEndMs - nowMs),
      windowSeconds: monthSeconds,
      refused: !usage.accepted && !usage.addressKnown && usage.addressCount >= limits.addresses,
    });
  }
  return policies;
}

/**
 * Turns the store's answer into the 429 decision and the RateLimit headers of the IETF draft
 * (draft-ietf-httpapi-ratelimit-headers-06: RateLimit-Limit/-Remaining/-Reset and RateLimit-Policy).
 * The Limit/Remaining/Reset triple describes one policy: the one that refused, else the request
 * quota closest to running out. The IP limit counts addresses, not requests, so it is named in the
 * policy list with a comment and reported in the triple only when it refuses or is the only limit.
 */
export function decideRateLimit(limits: KeyLimits, usage: QuotaUsage, now: Date): RateLimitDecision {
  const policies = policiesOf(limits, usage, now);
  if (policies.length === 0) return { accepted: true, headers: {} };

  const byLongestReset = (a: Policy, b: Policy) => b.resetSeconds - a.resetSeconds;
  const refused = policies.filter((p) => p.refused).sort(byLongestReset);
  const requestQuotas = policies.filter((p) => p.name !== 'client_addresses');
  const closest = [...(requestQuotas.length > 0 ? requestQuotas : policies)].sort(
    (a, b) => a.remaining - b.remaining || a.resetSeconds - b.resetSeconds,
  );
  const reported = refused[0] ?? closest[0];

  const headers: Record<string, string> = {
    'ratelimit-policy': policies
      .map((p) => `${p.quota};w=${p.windowSeconds}${p.name === 'client_addresses' ? ';comment="distinct client IPs"' : ''}`)
      .join(', '),
    'ratelimit-limit': String(reported.quota),
    'ratelimit-remaining': String(reported.refused ? 0 : reported.remaining),
    'ratelimit-reset': String(reported.resetSeconds),
  };
  if (usage.accepted) return { accepted: true, headers };
  headers['retry-after'] = String(reported.resetSeconds);
  return { accepted: false, refusedBy: reported.name, retryAfterSeconds: reported.resetSeconds, headers };
}
