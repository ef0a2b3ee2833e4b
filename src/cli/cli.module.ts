import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { apiKeyChangesProvider } from '../api-keys/api-key-changes.provider.js';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { CommonModule } from '../common/common.module.js';
import { databaseConfig } from '../config/database.config.js';
import { protectionConfig } from '../config/protection.config.js';
import { securityConfig } from '../config/security.config.js';
import { tokensConfig } from '../config/tokens.config.js';
import { webhooksConfig } from '../config/webhooks.config.js';
import { DatabaseModule } from '../database/database.module.js';
import { TeamsService } from '../teams/teams.service.js';
import { SigningKeysService } from '../tokens/signing-keys.service.js';
import { UsersService } from '../users/users.service.js';
import { WebhookEndpointsService } from '../webhooks/webhook-endpoints.service.js';

/**
 * The services the command line drives, without HTTP or background jobs. They are listed here rather
 * than through their feature modules because those also declare controllers, whose OpenAPI decorators
 * (@nestjs/swagger) would cost every call about half a second of loading (docs/operations.md).
 */
@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [databaseConfig, protectionConfig, securityConfig, tokensConfig, webhooksConfig] }),
    CommonModule,
    DatabaseModule.forRoot({ joinRunningEmbedded: true, poolSize: 2 }),
  ],
  providers: [TeamsService, UsersService, ApiKeysService, apiKeyChangesProvider, SigningKeysService, WebhookEndpointsService],
})
export class CliModule {}
