import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { ApiKeysModule } from '../api-keys/api-keys.module.js';
import { CommonModule } from '../common/common.module.js';
import { databaseConfig } from '../config/database.config.js';
import { securityConfig } from '../config/security.config.js';
import { tokensConfig } from '../config/tokens.config.js';
import { webhooksConfig } from '../config/webhooks.config.js';
import { DatabaseModule } from '../database/database.module.js';
import { TeamsModule } from '../teams/teams.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { UsersModule } from '../users/users.module.js';
import { WebhookEndpointsModule } from '../webhooks/webhook-endpoints.module.js';

/** The services the command line drives: the app's own modules, without HTTP. */
@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [databaseConfig, securityConfig, tokensConfig, webhooksConfig] }),
    CommonModule,
    DatabaseModule.forRoot({ joinRunningEmbedded: true, poolSize: 2 }),
    TeamsModule,
    UsersModule,
    ApiKeysModule,
    TokensModule,
    WebhookEndpointsModule,
  ],
})
export class CliModule {}
