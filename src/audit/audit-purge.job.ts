import { Inject, Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../common/clock/clock.js';
import { PurgeJob } from '../common/jobs/purge-job.js';
import { auditConfig, type AuditConfig } from '../config/audit.config.js';
import { AuditStore } from './audit.store.js';

/** Deletes audit entries older than AUDIT_RETENTION (default 365 days; docs/audit.md). */
@Injectable()
export class AuditPurgeJob extends PurgeJob {
  protected readonly subject = 'audit entries past their retention';

  constructor(
    private readonly store: AuditStore,
    private readonly clock: Clock,
    @Inject(auditConfig.KEY) private readonly config: AuditConfig,
  ) {
    super();
  }

  @Interval(3_600_000)
  purgeExpired(): Promise<number> {
    return this.purge();
  }

  protected purgeDue(): Promise<number> {
    return this.store.purgeBefore(new Date(this.clock.now().getTime() - this.config.retentionMs));
  }
}
