import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { apiKeysConfig } from '../config/api-keys.config.js';
import { databaseConfig } from '../config/database.config.js';
import { protectionConfig } from '../config/protection.config.js';
import { TeamsModule } from '../teams/teams.module.js';
import { ApiKey } from './api-key.entity.js';
import { ApiKeyChanges } from './api-key-changes.js';
import { apiKeyChangesProvider } from './api-key-changes.provider.js';
import { ApiKeyLastUseFlushJob } from './api-key-last-use-flush.job.js';
import { ApiKeyLastUseService } from './api-key-last-use.service.js';
import { ApiKeyLastUseStore } from './api-key-last-use.store.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysService } from './api-keys.service.js';

@Module({
  imports: [
    TypeOrmModule.forFeature([ApiKey]),
    TeamsModule,
    ConfigModule.forFeature(protectionConfig),
    ConfigModule.forFeature(databaseConfig),
    ConfigModule.forFeature(apiKeysConfig),
  ],
  controllers: [ApiKeysController],
  providers: [ApiKeysService, apiKeyChangesProvider, ApiKeyLastUseStore, ApiKeyLastUseService, ApiKeyLastUseFlushJob],
  exports: [ApiKeysService, ApiKeyLastUseService, ApiKeyChanges],
})
export class ApiKeysModule {}
