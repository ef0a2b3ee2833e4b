import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { serverConfig } from '../config/server.config.js';
import { JwksController } from './jwks.controller.js';
import { SigningKeysService } from './signing-keys.service.js';
import { TokensService } from './tokens.service.js';

@Module({
  // The JWKS cache's interval (ANONYMOUS_CACHE_TTL), also where the command line builds this module.
  imports: [ConfigModule.forFeature(serverConfig)],
  controllers: [JwksController],
  providers: [SigningKeysService, TokensService],
  exports: [SigningKeysService, TokensService],
})
export class TokensModule {}
