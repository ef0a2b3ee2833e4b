import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../../common/clock/clock.js';
import { OidcModelStore } from './oidc-model.store.js';

const BATCH = 1000;
// A purge never runs for long: what is left waits for the next minute.
const MAX_BATCHES = 20;

/** Expired grants, codes, tokens, sessions, interactions and our login records leave the table (docs/oidc.md, "State"). */
@Injectable()
export class OidcModelPurgeJob {
  private readonly logger = new Logger(OidcModelPurgeJob.name);

  constructor(
    private readonly models: OidcModelStore,
    private readonly clock: Clock,
  ) {}

  @Interval(60_000)
  async purgeExpiredModels(): Promise<void> {
    try {
      for (let i = 0; i < MAX_BATCHES; i++) if ((await this.models.purgeExpired(this.clock.now(), BATCH)) < BATCH) break;
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'Purging expired OpenID Provider rows failed; retrying next minute');
    }
  }
}
