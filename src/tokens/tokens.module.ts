import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JwksController } from './jwks.controller.js';
import { SigningKey } from './signing-key.entity.js';
import { SigningKeyStore } from './signing-key.store.js';
import { SigningKeysService } from './signing-keys.service.js';
import { TokensService } from './tokens.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([SigningKey])],
  controllers: [JwksController],
  providers: [SigningKeyStore, SigningKeysService, TokensService],
  exports: [SigningKeysService, TokensService],
})
export class TokensModule {}
