import { Inject, Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { webhooksConfig, type WebhooksConfig } from '../config/webhooks.config.js';

/**
 * SPEC 7: webhook payloads carry the identity of the session, so they are erased like the
 * session's personal data once the delivery has ended (delivered or failed) for the retention
 * period. The log row (status, attempts, times) stays; such a delivery can no longer be redelivered.
 */
@Injectable()
export class WebhookPayloadPurgeJob {
  private readonly logger = new Logger(WebhookPayloadPurgeJob.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
  ) {}

  @Interval(60_000)
  async purgeDeliveredPayloads(): Promise<number> {
    const now = this.clock.now();
    const [, purged]: [unknown, number] = await this.dataSource.query(
      `UPDATE webhook_deliveries SET payload_enc = NULL, payload_purged_at = $1
        WHERE payload_enc IS NOT NULL AND status <> 'pending' AND finished_at <= $2`,
      [now, new Date(now.getTime() - this.config.payloadRetentionMs)],
    );
    if (purged > 0) this.logger.log({ purged }, 'Erased the payloads of finished webhook deliveries');
    return purged;
  }
}
