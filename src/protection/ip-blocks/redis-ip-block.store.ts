import { randomUUID } from 'node:crypto';
import type { ProtectionRedis, RedisConnection } from '../redis/redis-connection.js';
import { IpBlockStore, type BlockInForce, type BlockPolicy } from './ip-block.store.js';

/** Blocks in Redis; a command that fails tells the connection, so that checks keep to their copy (docs/protection.md). */
export class RedisIpBlockStore extends IpBlockStore {
  private readonly redis: ProtectionRedis;
  private readonly keyPrefix: string;

  constructor(private readonly connection: RedisConnection) {
    super();
    this.redis = connection.client!;
    this.keyPrefix = connection.keyPrefix;
  }

  override get reachable(): boolean {
    return this.connection.answering;
  }

  async blockedUntil(address: string, now: Date): Promise<Date | null> {
    const until = Number(await this.asked(this.redis.get(this.key(address, 'block'))));
    return until > now.getTime() ? new Date(until) : null;
  }

  async blocksInForce(now: Date): Promise<BlockInForce[]> {
    const entries = await this.asked(this.redis.zrangebyscore(this.inForceKey(), `(${now.getTime()}`, '+inf', 'WITHSCORES'));
    const blocks: BlockInForce[] = [];
    for (let i = 0; i < entries.length; i += 2) blocks.push({ address: entries[i], until: new Date(Number(entries[i + 1])) });
    return blocks;
  }

  async recordFailure(address: string, now: Date, policy: BlockPolicy): Promise<Date | null> {
    const until = await this.asked(
      this.redis.recordFailure(
        this.key(address, 'failures'),
        this.key(address, 'block'),
        now.getTime(),
        policy.windowMs,
        policy.threshold,
        policy.durationMs,
        `${now.getTime()}:${randomUUID()}`,
      ),
    );
    if (until <= 0) return null;
    // The index of blocks in force has no hash tag of the address, so the script (which must run on
    // Redis Cluster too) cannot write it. A crash in between leaves the block unlisted: replicas then
    // learn of it from the address's next failed attempt, which the script answers with the block.
    await this.asked(this.redis.zadd(this.inForceKey(), 'GT', until, address));
    return new Date(until);
  }

  /** Redis expires the per-address keys itself; the index of blocks in force is trimmed here. */
  async purgeExpired(now: Date): Promise<number> {
    return this.redis.zremrangebyscore(this.inForceKey(), '-inf', now.getTime());
  }

  /** `command`'s answer; its failure also tells the connection that Redis does not answer. */
  private async asked<T>(command: Promise<T>): Promise<T> {
    try {
      return await command;
    } catch (error) {
      this.connection.unanswered(error);
      throw error;
    }
  }

  private inForceKey(): string {
    return `${this.keyPrefix}ip-blocks-in-force`;
  }

  private key(address: string, part: string): string {
    return `${this.keyPrefix}ip:{${address}}:${part}`;
  }
}
