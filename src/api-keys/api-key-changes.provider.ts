import type { Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { databaseConfig, type DatabaseConfig } from '../config/database.config.js';
import { protectionConfig, type ProtectionConfig } from '../config/protection.config.js';
import { ApiKeyChanges } from './api-key-changes.js';
import { LocalApiKeyChanges } from './local-api-key-changes.js';
import { PostgresApiKeyChanges } from './postgres-api-key-changes.js';
import { RedisApiKeyChanges } from './redis-api-key-changes.js';

/** The same store as the counters and blocks: Redis when REDIS_URL is set, else PostgreSQL (the app and the CLI). */
export const apiKeyChangesProvider: Provider = {
  provide: ApiKeyChanges,
  inject: [protectionConfig.KEY, databaseConfig.KEY, DataSource],
  useFactory: async (protection: ProtectionConfig, database: DatabaseConfig, dataSource: DataSource) => {
    if (protection.redisUrl) return RedisApiKeyChanges.open(protection.redisUrl, protection.redisKeyPrefix);
    return database.url ? new PostgresApiKeyChanges(dataSource) : new LocalApiKeyChanges();
  },
};
