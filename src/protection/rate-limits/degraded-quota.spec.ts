import { DegradedQuota } from './degraded-quota.js';
import type { KeyLimits, QuotaUsage } from './quota.store.js';

const SECOND = Date.UTC(2026, 10, 30, 23, 57, 0) / 1000;
const at = (seconds: number): Date => new Date((SECOND + seconds) * 1000);
const ADDRESS = '198.51.100.7';

const shared = (usage: Partial<QuotaUsage>): QuotaUsage => ({
  accepted: true,
  recentCount: 0,
  minuteFreesAt: at(61),
  monthCount: 0,
  addressCount: 0,
  addressKnown: false,
  ...usage,
});

function admitted(quota: DegradedQuota, n: number, when: Date, limits: KeyLimits, address = ADDRESS): number {
  let accepted = 0;
  for (let i = 0; i < n; i++) if (quota.consume('key', address, when, limits).accepted) accepted++;
  return accepted;
}

describe(DegradedQuota.name, () => {
  it('should admit the full per-minute limit in one process, then refuse until the oldest second stops counting', () => {
    const quota = new DegradedQuota();
    const limits: KeyLimits = { perMinute: 5, monthly: null, addresses: null };
    expect(admitted(quota, 8, at(0.5), limits)).toBe(5);
    expect(quota.consume('key', ADDRESS, at(30), limits)).toMatchObject({ accepted: false, recentCount: 5, minuteFreesAt: at(61) });
    expect(admitted(quota, 8, at(61), limits)).toBe(5);
  });

  it('should go on from the shared counts last seen, not from zero', () => {
    const quota = new DegradedQuota();
    const limits: KeyLimits = { perMinute: 10, monthly: 100, addresses: 2 };
    quota.remember('key', ADDRESS, at(0), shared({ recentCount: 8, monthCount: 40, addressCount: 2, addressKnown: true }));
    expect(admitted(quota, 5, at(1), limits)).toBe(2);
    // A third address is refused (two known to Redis), the known one passes once the minute frees.
    expect(quota.consume('key', '203.0.113.9', at(62), limits)).toMatchObject({ accepted: false, addressCount: 2 });
    expect(quota.consume('key', ADDRESS, at(62), limits)).toMatchObject({ accepted: true, monthCount: 43 });
  });

  it('should count the month from the shared count and start it over when the month turns', () => {
    const quota = new DegradedQuota();
    const limits: KeyLimits = { perMinute: null, monthly: 50, addresses: null };
    quota.remember('key', ADDRESS, at(0), shared({ monthCount: 48 }));
    expect(admitted(quota, 5, at(1), limits)).toBe(2);
    // 23:57:00 + 180 s is the first second of December.
    expect(admitted(quota, 60, at(180), limits)).toBe(50);
  });

  it('should hand over its own admissions once, with the minute and the new addresses', () => {
    const quota = new DegradedQuota();
    const limits: KeyLimits = { perMinute: 100, monthly: 1_000, addresses: 5 };
    quota.remember('key', ADDRESS, at(0), shared({ recentCount: 3, monthCount: 30, addressCount: 1, addressKnown: true }));
    admitted(quota, 4, at(1), limits);
    admitted(quota, 2, at(2), limits, '203.0.113.9');
    expect(quota.takeAdmissions(at(3))).toEqual([{ apiKeyId: 'key', minute: 6, month: 202611, monthCount: 6, addresses: ['203.0.113.9'] }]);
    expect(quota.takeAdmissions(at(3))).toEqual([]);
  });
});
