import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module.js';
import { EidProvidersModule } from '../eid-providers/eid-providers.module.js';
import { KioskTokenModule } from '../kiosk-tokens/kiosk-token.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { TeamsModule } from '../teams/teams.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { CibaCompletion } from './ciba/ciba-completion.js';
import { CibaPingSender } from './ciba/ciba-ping.js';
import { CibaRecords } from './ciba/ciba-records.js';
import { CibaService } from './ciba/ciba.service.js';
import { OidcClientCache } from './oidc-client-cache.js';
import { OidcClientStore } from './oidc-client.store.js';
import { OidcClientsController } from './oidc-clients.controller.js';
import { OidcClientsService } from './oidc-clients.service.js';
import { OidcHooks } from './oidc-hooks.js';
import { OidcInteractionController } from './oidc-interaction.controller.js';
import { OidcInteractionsService } from './oidc-interactions.service.js';
import { OidcLoginRecords } from './oidc-login-records.js';
import { OidcLoginStartRate } from './oidc-login-start-rate.js';
import { OidcModelPurgeJob } from './oidc-model-purge.job.js';
import { OidcModelStore } from './oidc-model.store.js';
import { OidcProviderService } from './oidc-provider.service.js';
import { OidcTeamAccess } from './oidc-team-access.js';
import { OidcController } from './oidc.controller.js';

/** The OpenID Provider front (docs/oidc.md). The interaction controller comes first: its routes are more specific. */
@Module({
  imports: [ApiKeysModule, SessionsModule, TeamsModule, TokensModule, EidProvidersModule, WebhooksModule, KioskTokenModule],
  controllers: [OidcClientsController, OidcInteractionController, OidcController],
  providers: [
    OidcModelStore,
    OidcClientStore,
    OidcClientCache,
    OidcClientsService,
    OidcLoginRecords,
    OidcLoginStartRate,
    OidcProviderService,
    OidcInteractionsService,
    OidcModelPurgeJob,
    OidcHooks,
    OidcTeamAccess,
    CibaRecords,
    CibaCompletion,
    CibaPingSender,
    CibaService,
  ],
  exports: [OidcClientsService],
})
export class OidcModule {}
