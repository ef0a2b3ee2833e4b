import { Module } from '@nestjs/common';
import { TokensModule } from '../tokens/tokens.module.js';
import { TransparencyController } from './transparency.controller.js';
import { TransparencyLog } from './transparency-log.service.js';
import { TransparencyLogStore } from './transparency-log.store.js';
import { TransparencyPublishJob } from './transparency-publish.job.js';
import { TreeHeadSigner } from './tree-head-signer.js';

/** The transparency log of result tokens and its public routes (docs/transparency.md). */
@Module({
  imports: [TokensModule],
  controllers: [TransparencyController],
  providers: [TransparencyLogStore, TransparencyLog, TreeHeadSigner, TransparencyPublishJob],
  exports: [TransparencyLog],
})
export class TransparencyLogModule {}
