import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { IpBlocksService } from './ip-blocks.service.js';

/** Keeps this process's copy of the blocks in force current: blocks other replicas made reach it within a second. */
@Injectable()
export class IpBlockSyncJob implements OnApplicationBootstrap {
  private readonly logger = new Logger(IpBlockSyncJob.name);
  private failing = false;

  constructor(private readonly ipBlocks: IpBlocksService) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.sync();
  }

  @Interval(1_000)
  async sync(): Promise<void> {
    try {
      await this.ipBlocks.syncBlocks();
      if (this.failing) this.logger.log('IP blocks are in sync again');
      this.failing = false;
    } catch (error) {
      // Once per outage: the checks fall back to the store meanwhile (IpBlocksService).
      if (!this.failing) this.logger.error({ err: error }, 'Syncing IP blocks failed; checks ask the store until it works again');
      this.failing = true;
    }
  }
}
