import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { EvidenceBundleController } from './evidence-bundle.controller.js';
import { EvidenceBundleService } from './evidence-bundle.service.js';
import { TransparencyLogModule } from './transparency-log.module.js';

/** Evidence bundles of final sessions (docs/transparency.md); apart from the log, which the sessions module writes to. */
@Module({
  imports: [SessionsModule, TransparencyLogModule, TokensModule],
  controllers: [EvidenceBundleController],
  providers: [EvidenceBundleService],
})
export class EvidenceBundleModule {}
