import { Logger, type OnModuleDestroy } from '@nestjs/common';
import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import { postgresPool } from '../database/sql-execution.js';
import { statement } from '../database/statement.js';
import { API_KEY_CHANGES_CHANNEL, ApiKeyChanges } from './api-key-changes.js';

const RECONNECT_DELAY_MS = 1_000;
const notify = statement<[channel: string, apiKeyId: string]>('SELECT pg_notify($1, $2)');

/** LISTEN/NOTIFY on one connection of the pool, held while the process runs. */
export class PostgresApiKeyChanges extends ApiKeyChanges implements OnModuleDestroy {
  private readonly logger = new Logger(PostgresApiKeyChanges.name);
  private client: PoolClient | null = null;
  private connecting = false;
  private closed = false;

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  get live(): boolean {
    return this.client !== null;
  }

  protected async send(apiKeyId: string): Promise<void> {
    await notify.run(this.dataSource, API_KEY_CHANGES_CHANNEL, apiKeyId);
  }

  listen(): void {
    if (this.client || this.connecting || this.closed) return;
    this.connecting = true;
    void this.connect().finally(() => (this.connecting = false));
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    this.client?.release(true);
    this.client = null;
  }

  private async connect(): Promise<void> {
    try {
      const client = await postgresPool(this.dataSource).connect();
      client.on('notification', (message) => {
        if (message.channel === API_KEY_CHANGES_CHANNEL && message.payload) this.changed(message.payload);
      });
      client.on('error', (error) => this.lost(client, error));
      client.on('end', () => this.lost(client, new Error('The listening connection ended')));
      // The one statement outside the stores' statements: it holds this connection, taken from the pool, for the process's life.
      // eslint-disable-next-line no-restricted-syntax
      await client.query(`LISTEN ${API_KEY_CHANGES_CHANNEL}`);
      if (this.closed) return client.release(true);
      this.client = client;
      // Changes made before LISTEN took effect were not heard: start from an empty cache.
      this.changed(null);
    } catch (error) {
      this.logger.error({ err: error }, 'Listening for API key changes failed; keys are not cached until it works');
      this.retryLater();
    }
  }

  private lost(client: PoolClient, error: Error): void {
    if (this.client !== client) return;
    this.logger.error({ err: error }, 'The API key change feed was lost; keys are not cached until it is back');
    this.client = null;
    this.changed(null);
    client.release(true);
    this.retryLater();
  }

  private retryLater(): void {
    if (!this.closed) setTimeout(() => this.listen(), RECONNECT_DELAY_MS).unref();
  }
}
