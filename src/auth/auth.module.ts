import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeysModule } from '../api-keys/api-keys.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { UsersModule } from '../users/users.module.js';
import { AuthGuard } from './auth.guard.js';
import { BearerAuthenticator } from './bearer-authenticator.js';
import { PrincipalAuthenticator } from './principal-authenticator.js';
import { RequestAuthorizer } from './request-authorizer.js';

@Module({
  imports: [ApiKeysModule, TokensModule, UsersModule],
  providers: [BearerAuthenticator, PrincipalAuthenticator, RequestAuthorizer, { provide: APP_GUARD, useClass: AuthGuard }],
  // Forward authentication (docs/forward-auth.md) authenticates a gateway's original request the same way.
  // The hot routes authorise with the AuthGuard's own code (docs/architecture.md, "Hot routes").
  exports: [PrincipalAuthenticator, RequestAuthorizer],
})
export class AuthModule {}
