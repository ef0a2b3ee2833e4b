import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { serverConfig } from '../config/server.config.js';
import { JwksController } from './jwks.controller.js';
import { ResultTokenSigner } from './result-token-signer.js';
import { SigningKey } from './signing-key.entity.js';
import { SigningKeyStore } from './signing-key.store.js';
import { SigningKeysService } from './signing-keys.service.js';
import { TokenRevocationPurgeJob } from './token-revocation-purge.job.js';
import { TokenRevocations } from './token-revocations.js';
import { TokensService } from './tokens.service.js';

@Module({
  // The JWKS cache's interval (ANONYMOUS_CACHE_TTL), also where the command line builds this module.
  imports: [ConfigModule.forFeature(serverConfig), TypeOrmModule.forFeature([SigningKey])],
  controllers: [JwksController],
  providers: [SigningKeyStore, SigningKeysService, TokensService, TokenRevocations, TokenRevocationPurgeJob, ResultTokenSigner],
  exports: [SigningKeysService, TokensService, TokenRevocations, ResultTokenSigner],
})
export class TokensModule {}
