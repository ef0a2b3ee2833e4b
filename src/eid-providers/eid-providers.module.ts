import { Module } from '@nestjs/common';
import { BankIdModule } from './bankid/bankid.module.js';
import { BankIdProvider } from './bankid/bankid.provider.js';
import type { EidProvider } from './eid-provider.js';
import { EudiModule } from './eudi/eudi.module.js';
import { EudiProvider } from './eudi/eudi.provider.js';
import { FrejaModule } from './freja/freja.module.js';
import { FrejaProvider } from './freja/freja.provider.js';
import { EID_PROVIDERS, EidProviderRegistry } from './eid-provider.registry.js';
import { SimulatorAppController } from './simulator/simulator-app.controller.js';
import { SimulatorController } from './simulator/simulator.controller.js';
import { SimulatorModule } from './simulator/simulator.module.js';
import { SimulatorProvider } from './simulator/simulator.provider.js';
import { UPSTREAM_OIDC_PROVIDERS, UpstreamOidcModule } from './upstream-oidc/upstream-oidc.module.js';
import { UPSTREAM_SAML_PROVIDERS, UpstreamSamlModule } from './upstream-saml/upstream-saml.module.js';

@Module({
  imports: [SimulatorModule, BankIdModule, FrejaModule, UpstreamOidcModule, UpstreamSamlModule, EudiModule],
  controllers: [SimulatorController, SimulatorAppController],
  providers: [
    {
      provide: EID_PROVIDERS,
      // The order is the OpenID fronts' preference when a request names no acr (docs/oidc.md, "acr values").
      inject: [BankIdProvider, FrejaProvider, SimulatorProvider, UPSTREAM_OIDC_PROVIDERS, UPSTREAM_SAML_PROVIDERS, EudiProvider],
      // A module may bring several providers of one kind (the configured upstreams): a list is flattened.
      useFactory: (...providers: (EidProvider | EidProvider[])[]) => providers.flat(),
    },
    EidProviderRegistry,
  ],
  exports: [EidProviderRegistry],
})
export class EidProvidersModule {}
