import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock } from '../../common/clock/clock.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { UpstreamConnections } from './upstream-connections.js';
import { UpstreamOidcController } from './upstream-oidc.controller.js';
import { upstreamOidcConfig } from './upstream-oidc.config.js';
import { UpstreamOidcProvider } from './upstream-oidc.provider.js';
import { UpstreamOrder } from './upstream-order.entity.js';
import { UpstreamOrderStore } from './upstream-order.store.js';
import { UpstreamSignIn } from './upstream-sign-in.service.js';

/** Every configured upstream OpenID provider, one adapter each (docs/upstream-oidc.md). */
export const UPSTREAM_OIDC_PROVIDERS = Symbol('UPSTREAM_OIDC_PROVIDERS');

@Module({
  imports: [ConfigModule.forFeature(upstreamOidcConfig), ConfigModule.forFeature(serverConfig), TypeOrmModule.forFeature([UpstreamOrder])],
  controllers: [UpstreamOidcController],
  providers: [
    UpstreamConnections,
    UpstreamOrderStore,
    UpstreamSignIn,
    {
      provide: UPSTREAM_OIDC_PROVIDERS,
      inject: [UpstreamConnections, UpstreamOrderStore, DataCipher, Clock, serverConfig.KEY],
      useFactory: (connections: UpstreamConnections, orders: UpstreamOrderStore, cipher: DataCipher, clock: Clock, server: ServerConfig) =>
        connections.upstreams.map(
          (upstream) => new UpstreamOidcProvider(upstream, { connections, orders, cipher, clock, publicBaseUrl: server.publicBaseUrl }),
        ),
    },
  ],
  exports: [UPSTREAM_OIDC_PROVIDERS],
})
export class UpstreamOidcModule {}
