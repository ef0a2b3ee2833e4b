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
import { OidcClientCache } from './clients/oidc-client-cache.js';
import { OidcClientStore } from './clients/oidc-client.store.js';
import { OidcClientsController } from './clients/oidc-clients.controller.js';
import { OidcClientsService } from './clients/oidc-clients.service.js';
import { OidcHooks } from './library/oidc-hooks.js';
import { OidcInteractionController } from './login/oidc-interaction.controller.js';
import { OidcInteractionsService } from './login/oidc-interactions.service.js';
import { OidcLoginRecords } from './login/oidc-login-records.js';
import { OidcLoginStartRate } from './login/oidc-login-start-rate.js';
import { OidcModelPurgeJob } from './library/oidc-model-purge.job.js';
import { OidcModelStore } from './library/oidc-model.store.js';
import { OidcProviderService } from './library/oidc-provider.service.js';
import { OidcSessionLogin } from './oidc-session-login.js';
import { OidcTeamAccess } from './oidc-team-access.js';
import { OidcController } from './library/oidc.controller.js';

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
    OidcSessionLogin,
    CibaRecords,
    CibaCompletion,
    CibaPingSender,
    CibaService,
  ],
  exports: [OidcClientsService],
})
export class OidcModule {}
