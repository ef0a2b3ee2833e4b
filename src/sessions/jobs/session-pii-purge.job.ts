import { Inject, Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../../common/clock/clock.js';
import { PurgeJob } from '../../common/jobs/purge-job.js';
import { sessionsConfig, type SessionsConfig } from '../../config/sessions.config.js';
import { EidProviderRegistry } from '../../eid-providers/eid-provider.registry.js';
import { SessionStore } from '../session.store.js';

/**
 * Personal data of a finished session is erased after SESSION_PII_RETENTION; the row keeps status
 * and times for audit (docs/security.md). Providers' own orders go once no session can collect them.
 */
@Injectable()
export class SessionPiiPurgeJob extends PurgeJob {
  protected readonly subject = 'personal data of finished sessions';

  constructor(
    private readonly sessions: SessionStore,
    private readonly providers: EidProviderRegistry,
    private readonly clock: Clock,
    @Inject(sessionsConfig.KEY) private readonly config: SessionsConfig,
  ) {
    super();
  }

  @Interval(60_000)
  purgeExpiredPersonalData(): Promise<number> {
    return this.purge();
  }

  protected async purgeDue(): Promise<number> {
    const now = this.clock.now();
    const cutoff = new Date(now.getTime() - this.config.piiRetentionMs);
    const purged = await this.sessions.purgePersonalData(now, cutoff);
    await this.providers.purgeOrdersCreatedBefore(new Date(cutoff.getTime() - this.config.sessionTtlMs));
    return purged;
  }
}
