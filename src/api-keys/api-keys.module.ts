import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { protectionConfig, type ProtectionConfig } from '../config/protection.config.js';
import { TeamsModule } from '../teams/teams.module.js';
import { ApiKeyChanges } from './api-key-changes.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysService } from './api-keys.service.js';
import { PostgresApiKeyChanges } from './postgres-api-key-changes.js';
import { RedisApiKeyChanges } from './redis-api-key-changes.js';

@Module({
  imports: [TeamsModule, ConfigModule.forFeature(protectionConfig)],
  controllers: [ApiKeysController],
  providers: [
    ApiKeysService,
    {
      // The same store as the counters and blocks: Redis when REDIS_URL is set, else PostgreSQL.
      provide: ApiKeyChanges,
      inject: [protectionConfig.KEY, DataSource],
      useFactory: (config: ProtectionConfig, dataSource: DataSource) =>
        config.redisUrl ? new RedisApiKeyChanges(config.redisUrl, config.redisKeyPrefix) : new PostgresApiKeyChanges(dataSource),
    },
  ],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
