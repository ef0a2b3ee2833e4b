import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock } from '../../common/clock/clock.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { UpstreamOrder } from '../upstream-oidc/upstream-order.entity.js';
import { UpstreamOrderStore } from '../upstream-oidc/upstream-order.store.js';
import { UpstreamSamlSignIn } from './upstream-saml-sign-in.service.js';
import { UpstreamSamlController } from './upstream-saml.controller.js';
import { upstreamSamlConfig } from './upstream-saml.config.js';
import { UpstreamSamlProvider } from './upstream-saml.provider.js';

/** Every configured upstream SAML IdP, one adapter each (docs/saml.md, "Upstream SAML e-IDs"). */
export const UPSTREAM_SAML_PROVIDERS = Symbol('UPSTREAM_SAML_PROVIDERS');

@Module({
  imports: [ConfigModule.forFeature(upstreamSamlConfig), ConfigModule.forFeature(serverConfig), TypeOrmModule.forFeature([UpstreamOrder])],
  controllers: [UpstreamSamlController],
  providers: [
    UpstreamOrderStore,
    UpstreamSamlSignIn,
    {
      provide: UPSTREAM_SAML_PROVIDERS,
      inject: [UpstreamSamlSignIn, UpstreamOrderStore, DataCipher, Clock, serverConfig.KEY],
      useFactory: (signIn: UpstreamSamlSignIn, orders: UpstreamOrderStore, cipher: DataCipher, clock: Clock, server: ServerConfig) =>
        signIn.upstreams.map(
          (upstream) => new UpstreamSamlProvider(upstream, { orders, cipher, clock, publicBaseUrl: server.publicBaseUrl }),
        ),
    },
  ],
  exports: [UPSTREAM_SAML_PROVIDERS],
})
export class UpstreamSamlModule {}
