import { Module } from '@nestjs/common';
import { JwksController } from './jwks.controller.js';
import { SigningKeysService } from './signing-keys.service.js';
import { TokensService } from './tokens.service.js';

@Module({
  controllers: [JwksController],
  providers: [SigningKeysService, TokensService],
  exports: [SigningKeysService, TokensService],
})
export class TokensModule {}
