import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeysModule } from '../api-keys/api-keys.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { UsersModule } from '../users/users.module.js';
import { AuthGuard } from './auth.guard.js';
import { BearerAuthenticator } from './bearer-authenticator.js';

@Module({
  imports: [ApiKeysModule, TokensModule, UsersModule],
  providers: [BearerAuthenticator, { provide: APP_GUARD, useClass: AuthGuard }],
})
export class AuthModule {}
