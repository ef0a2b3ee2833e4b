import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { databaseConfig, type DatabaseConfig } from '../config/database.config.js';
import { protectionConfig, type ProtectionConfig } from '../config/protection.config.js';
import { TeamsModule } from '../teams/teams.module.js';
import { ApiKeyChanges } from './api-key-changes.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysService } from './api-keys.service.js';
import { LocalApiKeyChanges } from './local-api-key-changes.js';
import { PostgresApiKeyChanges } from './postgres-api-key-changes.js';
import { RedisApiKeyChanges } from './redis-api-key-changes.js';

@Module({
  imports: [TeamsModule, ConfigModule.forFeature(protectionConfig), ConfigModule.forFeature(databaseConfig)],
  controllers: [ApiKeysController],
  providers: [
    ApiKeysService,
    {
      // The same store as the counters and blocks: Redis when REDIS_URL is set, else PostgreSQL.
      provide: ApiKeyChanges,
      inject: [protectionConfig.KEY, databaseConfig.KEY, DataSource],
      useFactory: (protection: ProtectionConfig, database: DatabaseConfig, dataSource: DataSource) => {
        if (protection.redisUrl) return new RedisApiKeyChanges(protection.redisUrl, protection.redisKeyPrefix);
        return database.url ? new PostgresApiKeyChanges(dataSource) : new LocalApiKeyChanges();
      },
    },
  ],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
