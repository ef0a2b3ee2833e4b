import { Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { API_KEY_CHANGES_CHANNEL, ApiKeyChanges } from './api-key-changes.js';

/** Redis pub/sub: one connection subscribes (on first use), another publishes. */
export class RedisApiKeyChanges extends ApiKeyChanges implements OnModuleDestroy {
  private readonly logger = new Logger(RedisApiKeyChanges.name);
  private readonly channel: string;
  private subscriber: Redis | null = null;
  private publisher: Redis | null = null;
  private subscribed = false;
  /** One error line per outage: ioredis reports every failed reconnection (every few hundred ms). */
  private failing = false;

  /** ioredis is loaded only where REDIS_URL is set (docs/performance.md, "Start-up"). */
  static async open(url: string, keyPrefix: string): Promise<RedisApiKeyChanges> {
    return new RedisApiKeyChanges((await import('ioredis')).Redis, url, keyPrefix);
  }

  private constructor(
    private readonly RedisClient: typeof Redis,
    private readonly url: string,
    keyPrefix: string,
  ) {
    super();
    this.channel = `${keyPrefix}${API_KEY_CHANGES_CHANNEL}`;
  }

  get live(): boolean {
    return this.subscribed;
  }

  protected async send(apiKeyId: string): Promise<void> {
    this.publisher ??= new this.RedisClient(this.url, { maxRetriesPerRequest: 1, commandTimeout: 2_000 });
    await this.publisher.publish(this.channel, apiKeyId);
  }

  listen(): void {
    if (this.subscriber) return;
    const subscriber = new this.RedisClient(this.url, { maxRetriesPerRequest: 1 });
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, apiKeyId: string) => {
      if (channel === this.channel) this.changed(apiKeyId);
    });
    // ioredis subscribes again after a reconnect; changes missed meanwhile are unknown, so the cache starts over.
    subscriber.on('ready', () => {
      this.failing = false;
      void subscriber.subscribe(this.channel).then(
        () => {
          this.subscribed = true;
          this.changed(null);
        },
        (error: unknown) => this.logger.error({ err: error }, 'Subscribing to API key changes failed'),
      );
    });
    subscriber.on('close', () => {
      if (!this.subscribed) return;
      this.subscribed = false;
      this.changed(null);
      this.logger.warn('The API key change feed was lost; keys are not cached until it is back');
    });
    subscriber.on('error', (error: Error) => {
      if (this.failing) return;
      this.failing = true;
      this.logger.error({ err: error }, 'API key change feed error');
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.subscribed = false;
    for (const client of [this.subscriber, this.publisher]) await client?.quit().catch(() => client.disconnect());
  }
}
