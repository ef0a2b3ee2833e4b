import type { ApiKey } from '../../api-keys/api-key.entity.js';
import { SystemClock } from '../../common/clock/clock.js';
import { QuotaStore, type MonthUsage, type QuotaUsage } from './quota.store.js';
import { RateLimitsService } from './rate-limits.service.js';

/** A store whose every decision fails with `error`, as a store cut off from its server does. */
class FailingStore extends QuotaStore {
  constructor(private readonly error: Error) {
    super();
  }
  consume(): Promise<QuotaUsage> {
    return Promise.reject(this.error);
  }
  monthUsage(): Promise<Map<string, MonthUsage>> {
    return Promise.reject(this.error);
  }
}

const limitedKey = { id: 'key-1', perMinuteLimit: 60, monthlyLimit: null, ipLimit: null } as ApiKey;

describe(RateLimitsService.name, () => {
  it('should let a request through when the store fails for its own reasons', async () => {
    const service = new RateLimitsService(
      new FailingStore(new Error('READONLY You can not write against a read only replica')),
      new SystemClock(),
    );
    await expect(service.consume(limitedKey, '192.0.2.1')).resolves.toBeNull();
  });

  it('should pass on our own database being away, so the request answers 503 at once', async () => {
    // node-postgres's text when a statement's answer never came (a partition).
    const timeout = new Error('Query read timeout');
    const service = new RateLimitsService(new FailingStore(timeout), new SystemClock());
    await expect(service.consume(limitedKey, '192.0.2.1')).rejects.toBe(timeout);
  });
});
