import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseConfig } from '../config/database.config.js';
import { protectionConfig } from '../config/protection.config.js';
import { TeamsModule } from '../teams/teams.module.js';
import { ApiKey } from './api-key.entity.js';
import { apiKeyChangesProvider } from './api-key-changes.provider.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysService } from './api-keys.service.js';

@Module({
  imports: [
    TypeOrmModule.forFeature([ApiKey]),
    TeamsModule,
    ConfigModule.forFeature(protectionConfig),
    ConfigModule.forFeature(databaseConfig),
  ],
  controllers: [ApiKeysController],
  providers: [ApiKeysService, apiKeyChangesProvider],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
