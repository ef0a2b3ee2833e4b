import { Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../../common/clock/clock.js';
import { PurgeJob } from '../../common/jobs/purge-job.js';
import { OidcModelStore } from './oidc-model.store.js';

const BATCH = 1000;
// A purge never runs for long: what is left waits for the next minute.
const MAX_BATCHES = 20;

/** Expired grants, codes, tokens, sessions, interactions and our login records leave the table (docs/oidc.md, "State"). */
@Injectable()
export class OidcModelPurgeJob extends PurgeJob {
  protected readonly subject = 'expired OpenID Provider rows';

  constructor(
    private readonly models: OidcModelStore,
    private readonly clock: Clock,
  ) {
    super();
  }

  @Interval(60_000)
  purgeExpiredModels(): Promise<number> {
    return this.purge();
  }

  protected async purgeDue(): Promise<number> {
    let purged = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const batch = await this.models.purgeExpired(this.clock.now(), BATCH);
      purged += batch;
      if (batch < BATCH) break;
    }
    return purged;
  }
}
