import { randomUUID } from 'node:crypto';
import type { ProtectionRedis } from '../redis/redis-connection.js';
import { IpBlockStore, type BlockPolicy } from './ip-block.store.js';

export class RedisIpBlockStore extends IpBlockStore {
  constructor(
    private readonly redis: ProtectionRedis,
    private readonly keyPrefix: string,
  ) {
    super();
  }

  async blockedUntil(address: string, now: Date): Promise<Date | null> {
    const until = Number(await this.redis.get(this.key(address, 'block')));
    return until > now.getTime() ? new Date(until) : null;
  }

  async recordFailure(address: string, now: Date, policy: BlockPolicy): Promise<Date | null> {
    const until = await this.redis.recordFailure(
      this.key(address, 'failures'),
      this.key(address, 'block'),
      now.getTime(),
      policy.windowMs,
      policy.threshold,
      policy.durationMs,
      `${now.getTime()}:${randomUUID()}`,
    );
    return until > 0 ? new Date(until) : null;
  }

  /** Redis expires the keys itself. */
  async purgeExpired(): Promise<number> {
    return 0;
  }

  private key(address: string, part: string): string {
    return `${this.keyPrefix}ip:{${address}}:${part}`;
  }
}
