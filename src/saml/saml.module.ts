import { KioskTokenModule } from '../kiosk-tokens/kiosk-token.module.js';
import { Module } from '@nestjs/common';
import { EidProvidersModule } from '../eid-providers/eid-providers.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { TeamsModule } from '../teams/teams.module.js';
import { SamlMetadataService } from './metadata/saml-metadata.service.js';
import { SamlIdentity } from './saml-identity.js';
import { SamlController } from './saml.controller.js';
import { SamlServiceProviderStore } from './service-providers/saml-service-provider.store.js';
import { SamlServiceProvidersController } from './service-providers/saml-service-providers.controller.js';
import { SamlServiceProvidersService } from './service-providers/saml-service-providers.service.js';
import { SamlLogoutService } from './slo/saml-logout.service.js';
import { SamlLoginPurgeJob } from './sso/saml-login-purge.job.js';
import { SamlLoginService } from './sso/saml-login.service.js';
import { SamlLoginStore } from './sso/saml-login.store.js';
import { SamlSsoService } from './sso/saml-sso.service.js';

/** The SAML IdP front (docs/saml.md): one more face over the session engine. */
@Module({
  imports: [SessionsModule, TeamsModule, EidProvidersModule, KioskTokenModule],
  controllers: [SamlServiceProvidersController, SamlController],
  providers: [
    SamlIdentity,
    SamlMetadataService,
    SamlServiceProviderStore,
    SamlServiceProvidersService,
    SamlLoginStore,
    SamlSsoService,
    SamlLoginService,
    SamlLogoutService,
    SamlLoginPurgeJob,
  ],
})
export class SamlModule {}
