import { AuditEvent } from '../audit/audit-event.entity.js';
import { AuditLog } from '../audit/audit-log.service.js';
import { AuditStore } from '../audit/audit.store.js';
import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from '../api-keys/api-key.entity.js';
import { apiKeyChangesProvider } from '../api-keys/api-key-changes.provider.js';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { ENTITIES } from '../app.entities.js';
import { CommonModule } from '../common/common.module.js';
import { ConsoleLoginFailureStore } from '../console/console-login-failure.store.js';
import { LoginUnlock } from '../console/login-unlock.service.js';
import { databaseConfig } from '../config/database.config.js';
import { protectionConfig } from '../config/protection.config.js';
import { serverConfig } from '../config/server.config.js';
import { securityConfig } from '../config/security.config.js';
import { tokensConfig } from '../config/tokens.config.js';
import { webhooksConfig } from '../config/webhooks.config.js';
import { DatabaseModule } from '../database/database.module.js';
import { OtpChallengeStore } from '../otp/otp-challenge.store.js';
import { Team } from '../teams/team.entity.js';
import { TeamStore } from '../teams/team.store.js';
import { TeamsService } from '../teams/teams.service.js';
import { SigningKey } from '../tokens/signing-key.entity.js';
import { SigningKeyStore } from '../tokens/signing-key.store.js';
import { SigningKeysService } from '../tokens/signing-keys.service.js';
import { User } from '../users/user.entity.js';
import { MemberInvitationStore } from '../users/member-invitation.store.js';
import { UserStore } from '../users/user.store.js';
import { UsersService } from '../users/users.service.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';
import { WebhookEndpointStore } from '../webhooks/webhook-endpoint.store.js';
import { WebhookEndpointsService } from '../webhooks/webhook-endpoints.service.js';
import { OidcClientCache } from '../oidc/clients/oidc-client-cache.js';
import { OidcClientStore } from '../oidc/clients/oidc-client.store.js';
import { OidcClientsService } from '../oidc/clients/oidc-clients.service.js';
import { SamlServiceProviderStore } from '../saml/service-providers/saml-service-provider.store.js';
import { SamlServiceProvidersService } from '../saml/service-providers/saml-service-providers.service.js';
import { sessionsConfig } from '../config/sessions.config.js';
import { CounterLink } from '../idcard/counter-link.entity.js';
import { CounterLinkStore } from '../idcard/counter-link.store.js';
import { CounterLinksService } from '../idcard/counter-links.service.js';

/**
 * The services the command line drives, without HTTP or background jobs. They are listed here rather
 * than through their feature modules because those also declare controllers, whose OpenAPI decorators
 * (@nestjs/swagger) would cost every call about half a second of loading (docs/operations.md). With the
 * services come the stores they use and the repositories of those stores' entities.
 */
@Module({
  imports: [
    ConfigModule.forRoot({
      isGlobal: true,
      ignoreEnvFile: true,
      load: [databaseConfig, protectionConfig, securityConfig, serverConfig, sessionsConfig, tokensConfig, webhooksConfig],
    }),
    CommonModule,
    DatabaseModule.forRoot({ entities: ENTITIES, joinRunningEmbedded: true, poolSize: 2 }),
    TypeOrmModule.forFeature([Team, User, ApiKey, SigningKey, WebhookEndpoint, AuditEvent, CounterLink]),
  ],
  providers: [
    TeamStore,
    TeamsService,
    UserStore,
    MemberInvitationStore,
    UsersService,
    ApiKeysService,
    apiKeyChangesProvider,
    SigningKeyStore,
    SigningKeysService,
    WebhookEndpointStore,
    WebhookEndpointsService,
    OtpChallengeStore,
    ConsoleLoginFailureStore,
    LoginUnlock,
    AuditStore,
    AuditLog,
    OidcClientStore,
    OidcClientCache,
    OidcClientsService,
    SamlServiceProviderStore,
    SamlServiceProvidersService,
    CounterLinkStore,
    CounterLinksService,
  ],
})
export class CliModule {}
