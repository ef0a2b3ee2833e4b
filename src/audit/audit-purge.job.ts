import { Inject, Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../common/clock/clock.js';
import { auditConfig, type AuditConfig } from '../config/audit.config.js';
import { AuditStore } from './audit.store.js';

/** Deletes audit entries older than AUDIT_RETENTION (default 365 days; docs/audit.md). */
@Injectable()
export class AuditPurgeJob {
  private readonly logger = new Logger(AuditPurgeJob.name);

  constructor(
    private readonly store: AuditStore,
    private readonly clock: Clock,
    @Inject(auditConfig.KEY) private readonly config: AuditConfig,
  ) {}

  @Interval(3_600_000)
  async purgeExpired(): Promise<number> {
    const purged = await this.store.purgeBefore(new Date(this.clock.now().getTime() - this.config.retentionMs));
    if (purged > 0) this.logger.log({ purged }, 'Deleted audit entries past their retention');
    return purged;
  }
}
