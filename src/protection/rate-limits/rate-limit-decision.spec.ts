import type { KeyLimits, QuotaUsage } from './quota.store.js';
import { decideRateLimit } from './rate-limit-decision.js';

const NOW = new Date('2026-11-21T10:00:00.000Z');
// Seconds from NOW to 2026-12-01T00:00:00Z, and the length of November.
const TO_MONTH_END = 9 * 86_400 + 14 * 3_600;
const NOVEMBER = 30 * 86_400;

const limits = (overrides: Partial<KeyLimits>): KeyLimits => ({ perMinute: null, monthly: null, addresses: null, ...overrides });
const usage = (overrides: Partial<QuotaUsage>): QuotaUsage => ({
  accepted: true,
  recentCount: 1,
  minuteFreesAt: new Date(NOW.getTime() + 60_000),
  monthCount: 1,
  addressCount: 1,
  addressKnown: true,
  ...overrides,
});

describe(decideRateLimit.name, () => {
  it('should send no headers for a key without limits', () => {
    expect(decideRateLimit(limits({}), usage({}), NOW)).toEqual({ accepted: true, headers: {} });
  });

  it('should report the per-minute window on success', () => {
    const decision = decideRateLimit(
      limits({ perMinute: 10 }),
      usage({ recentCount: 4, minuteFreesAt: new Date(NOW.getTime() + 14_500) }),
      NOW,
    );
    expect(decision).toEqual({
      accepted: true,
      headers: { 'ratelimit-policy': '10;w=60', 'ratelimit-limit': '10', 'ratelimit-remaining': '6', 'ratelimit-reset': '15' },
    });
  });

  it('should report the request quota closest to running out, and list every policy', () => {
    const decision = decideRateLimit(
      limits({ perMinute: 10, monthly: 100, addresses: 3 }),
      usage({ recentCount: 2, monthCount: 95, addressCount: 3 }),
      NOW,
    );
    expect(decision.headers).toEqual({
      'ratelimit-policy': `10;w=60, 100;w=${NOVEMBER}, 3;w=${NOVEMBER};comment="distinct client IPs"`,
      'ratelimit-limit': '100',
      'ratelimit-remaining': '5',
      'ratelimit-reset': String(TO_MONTH_END),
    });
  });

  it('should refuse with Retry-After until the oldest counted second stops counting', () => {
    const decision = decideRateLimit(
      limits({ perMinute: 5 }),
      usage({ accepted: false, recentCount: 5, minuteFreesAt: new Date(NOW.getTime() + 999) }),
      NOW,
    );
    expect(decision).toMatchObject({ accepted: false, refusedBy: 'per_minute', retryAfterSeconds: 1 });
    expect(decision.headers).toMatchObject({
      'retry-after': '1',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '1',
      'ratelimit-limit': '5',
    });
  });

  it('should refuse until the next calendar month when the monthly quota is used up', () => {
    const decision = decideRateLimit(
      limits({ perMinute: 5, monthly: 50 }),
      usage({ accepted: false, recentCount: 1, monthCount: 50 }),
      NOW,
    );
    expect(decision).toMatchObject({ accepted: false, refusedBy: 'monthly', retryAfterSeconds: TO_MONTH_END });
    expect(decision.headers).toMatchObject({ 'ratelimit-limit': '50', 'ratelimit-remaining': '0' });
  });

  it('should name the limit that lasts longest when several refuse', () => {
    const decision = decideRateLimit(
      limits({ perMinute: 5, monthly: 50 }),
      usage({ accepted: false, recentCount: 5, monthCount: 50 }),
      NOW,
    );
    expect(decision).toMatchObject({ refusedBy: 'monthly', retryAfterSeconds: TO_MONTH_END });
  });

  it('should refuse a new address beyond the IP limit but not a known one', () => {
    const refused = decideRateLimit(limits({ addresses: 2 }), usage({ accepted: false, addressCount: 2, addressKnown: false }), NOW);
    expect(refused).toMatchObject({ accepted: false, refusedBy: 'client_addresses', retryAfterSeconds: TO_MONTH_END });
    expect(refused.headers).toMatchObject({ 'ratelimit-limit': '2', 'ratelimit-remaining': '0' });
    const known = decideRateLimit(limits({ addresses: 2 }), usage({ addressCount: 2 }), NOW);
    expect(known).toMatchObject({ accepted: true, headers: { 'ratelimit-limit': '2', 'ratelimit-remaining': '0' } });
  });
});
