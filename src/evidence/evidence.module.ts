import { Module } from '@nestjs/common';
import { TokensModule } from '../tokens/tokens.module.js';
import { EvidenceService } from './evidence.service.js';
import { ResultTokenSigner } from './result-token-signer.js';

/** Provider evidence, kept and checked as each provider's profile says, and the signed result token (docs/evidence.md). */
@Module({
  imports: [TokensModule],
  providers: [EvidenceService, ResultTokenSigner],
  exports: [EvidenceService, ResultTokenSigner],
})
export class EvidenceModule {}
