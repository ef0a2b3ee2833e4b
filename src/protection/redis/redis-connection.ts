import { Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { errorForLog } from '../../common/logging/error-for-log.js';
import type { ProtectionConfig } from '../../config/protection.config.js';
import { CONSUME_QUOTA_LUA, GIVE_BACK_QUOTA_LUA, RECORD_DEGRADED_LUA, RECORD_FAILURE_LUA } from './protection-scripts.js';

/** Lua scripts run atomically in Redis: each one is a whole decision, as the SQL functions are. */
export interface ProtectionCommands {
  consumeQuota(
    minuteKey: string,
    usageKey: string,
    addressesKey: string,
    ...args: (string | number)[]
  ): Promise<[number, number, number, number, number, number, number]>;
  giveBackQuota(usageKey: string, minuteKey: string, month: number, second: number, unused: number): Promise<number>;
  recordDegraded(minuteKey: string, usageKey: string, addressesKey: string, ...args: (string | number)[]): Promise<number>;
  recordFailure(failuresKey: string, blockKey: string, ...args: (string | number)[]): Promise<number>;
}

export type ProtectionRedis = Redis & ProtectionCommands;

// While Redis does not answer, it is asked again this often, by a PING rather than by a request.
const PROBE_INTERVAL_MS = 1_000;

/**
 * The Redis client of the protection stores, present only when REDIS_URL is set, and whether Redis
 * answers. A dropped connection is seen at once (ioredis's status); a slow or partitioned Redis only
 * by a command that timed out (2 s): the stores report it (`unanswered`), and from then on no request
 * waits on Redis. A background PING, not a request, finds out when it answers again
 * (docs/protection.md, "When Redis is away").
 */
export class RedisConnection implements OnModuleInit, OnModuleDestroy {
  readonly client: ProtectionRedis | null = null;
  readonly keyPrefix: string;
  private readonly logger = new Logger(RedisConnection.name);
  /** One warning per outage: ioredis reports every failed reconnection. */
  private away = false;
  /** A command timed out or failed on a connection that looks open; the probe runs until one answers. */
  private probe: NodeJS.Timeout | null = null;

  /** ioredis is loaded only where REDIS_URL is set: a process without Redis does not compile it at start. */
  static async open(config: ProtectionConfig): Promise<RedisConnection> {
    return new RedisConnection(config, config.redisUrl ? (await import('ioredis')).Redis : null);
  }

  private constructor(config: ProtectionConfig, RedisClient: typeof Redis | null) {
    this.keyPrefix = config.redisKeyPrefix;
    if (!config.redisUrl || !RedisClient) return;
    const client = new RedisClient(config.redisUrl, {
      lazyConnect: true,
      // Fail a command fast instead of queueing it while Redis is away: the rate limits count per process
      // meanwhile, the IP-block checks use their copy (docs/protection.md, "When Redis is away").
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: 2_000,
    });
    client.defineCommand('consumeQuota', { numberOfKeys: 3, lua: CONSUME_QUOTA_LUA });
    client.defineCommand('giveBackQuota', { numberOfKeys: 2, lua: GIVE_BACK_QUOTA_LUA });
    client.defineCommand('recordDegraded', { numberOfKeys: 3, lua: RECORD_DEGRADED_LUA });
    client.defineCommand('recordFailure', { numberOfKeys: 2, lua: RECORD_FAILURE_LUA });
    client.on('error', (error: unknown) => {
      if (client.status === 'ready') return;
      this.wentAway(error);
    });
    // A new connection answered ioredis's ready check: Redis answers.
    client.on('ready', () => this.answered());
    this.client = client as ProtectionRedis;
  }

  /** Whether requests may ask Redis: connected, and no command has gone unanswered since it last answered. */
  get answering(): boolean {
    return this.client?.status === 'ready' && !this.probe;
  }

  /** A store's command failed (a timeout: Redis slow or partitioned): stop asking it until a PING answers. */
  unanswered(error: unknown): void {
    if (!this.client || this.probe) return;
    this.wentAway(error);
    const ping = () => {
      this.client!.ping().then(
        () => this.answered(),
        () => {
          if (this.probe) this.probe = setTimeout(ping, PROBE_INTERVAL_MS);
        },
      );
    };
    this.probe = setTimeout(ping, PROBE_INTERVAL_MS);
  }

  /** A bad REDIS_URL or an unreachable Redis stops the start, like an unreachable database. */
  async onModuleInit(): Promise<void> {
    try {
      await this.client?.connect();
    } catch (error) {
      // Stop ioredis's reconnect loop: the start has failed, nothing will close this client later.
      this.client?.disconnect();
      throw error;
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.stopProbe();
    await this.client?.quit().catch(() => this.client?.disconnect());
  }

  private wentAway(error: unknown): void {
    if (this.away) return;
    this.away = true;
    this.logger.warn({ err: errorForLog(error) }, 'Redis unreachable: protection in its degraded mode until it returns');
  }

  private answered(): void {
    this.stopProbe();
    if (this.away) this.logger.log('Redis reachable again');
    this.away = false;
  }

  private stopProbe(): void {
    if (this.probe) clearTimeout(this.probe);
    this.probe = null;
  }
}
