import { Inject, Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { sessionsConfig, type SessionsConfig } from '../config/sessions.config.js';

/**
 * SPEC 7: personal data of a finished session is erased after SESSION_PII_RETENTION; the row keeps
 * status and times for audit. Simulator orders go once no session can collect them any more.
 */
@Injectable()
export class SessionPiiPurgeJob {
  private readonly logger = new Logger(SessionPiiPurgeJob.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(sessionsConfig.KEY) private readonly config: SessionsConfig,
  ) {}

  @Interval(60_000)
  async purgeExpiredPersonalData(): Promise<number> {
    const now = this.clock.now();
    const cutoff = new Date(now.getTime() - this.config.piiRetentionMs);
    const [, purged]: [unknown, number] = await this.dataSource.query(
      `UPDATE sessions
          SET completion_enc = NULL, qr_start_secret_enc = NULL, end_user_ip = NULL, metadata = NULL, pii_purged_at = $1
        WHERE pii_purged_at IS NULL AND status <> 'pending' AND completed_at <= $2`,
      [now, cutoff],
    );
    await this.dataSource.query(`DELETE FROM simulator_orders WHERE created_at <= $1`, [
      new Date(cutoff.getTime() - this.config.sessionTtlMs),
    ]);
    if (purged > 0) this.logger.log({ purged }, 'Erased personal data of finished sessions');
    return purged;
  }
}
