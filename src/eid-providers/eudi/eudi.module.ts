import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { Clock } from '../../common/clock/clock.js';
import { securityConfig, type SecurityConfig } from '../../config/security.config.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { webhooksConfig, type WebhooksConfig } from '../../config/webhooks.config.js';
import { EudiOrderStore } from './eudi-order.store.js';
import { EUDI_TRUST, loadEudiTrust } from './eudi-verifier-identity.js';
import { eudiConfig, type EudiConfig } from './eudi.config.js';
import { EudiProvider } from './eudi.provider.js';
import { Openid4vpController } from './openid4vp.controller.js';
import { Openid4vpVerifier } from './openid4vp-verifier.service.js';
import { HttpStatusListFetcher, StatusListFetcher } from './status-list-fetcher.js';
import { StatusListCheck } from './status-list.js';
import { SimulatorWalletController } from './simulator-wallet/simulator-wallet.controller.js';
import { SimulatorWallet } from './simulator-wallet/simulator-wallet.service.js';

/** The EU Digital Identity Wallet verifier (docs/eudi-wallet.md). */
@Module({
  imports: [
    ConfigModule.forFeature(eudiConfig),
    ConfigModule.forFeature(serverConfig),
    ConfigModule.forFeature(securityConfig),
    ConfigModule.forFeature(webhooksConfig),
  ],
  controllers: [Openid4vpController, SimulatorWalletController],
  providers: [
    {
      provide: EUDI_TRUST,
      inject: [eudiConfig.KEY, serverConfig.KEY, securityConfig.KEY, Clock],
      useFactory: (config: EudiConfig, server: ServerConfig, security: SecurityConfig, clock: Clock) =>
        config.enabled ? loadEudiTrust(config, server, security.dataDir, clock.now()) : null,
    },
    {
      provide: StatusListFetcher,
      inject: [eudiConfig.KEY, webhooksConfig.KEY],
      // The webhooks' rule for private targets applies to this call out too.
      useFactory: (config: EudiConfig, webhooks: WebhooksConfig) =>
        new HttpStatusListFetcher({ timeoutMs: config.statusListTimeoutMs, allowPrivateTargets: webhooks.allowPrivateTargets }),
    },
    { provide: StatusListCheck, inject: [StatusListFetcher], useFactory: (fetcher: StatusListFetcher) => new StatusListCheck(fetcher) },
    EudiOrderStore,
    Openid4vpVerifier,
    EudiProvider,
    SimulatorWallet,
  ],
  exports: [EudiProvider, EUDI_TRUST, Openid4vpVerifier],
})
export class EudiModule {}
