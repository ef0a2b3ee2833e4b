import { Inject, Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { webhooksConfig, type WebhooksConfig } from '../config/webhooks.config.js';

/**
 * docs/webhooks.md (retention): webhook payloads carry the identity of the session, so they are
 * erased like the session's personal data once the delivery has ended (delivered or failed) for the
 * retention period, and so are the receivers' answers in its attempt log. A message that can no
 * longer be delivered because its endpoint is disabled ends as failed, on the same schedule counted
 * from the disabling. The log row (status, attempts, times) stays; such a delivery can no longer be
 * redelivered.
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
    const [{ purged }]: { purged: number }[] = await this.dataSource.query(
      `WITH stranded AS (
         UPDATE webhook_deliveries d
            SET status = 'failed', next_attempt_at = NULL, finished_at = $1, payload_enc = NULL, payload_purged_at = $1,
                lease_token = NULL, lease_expires_at = NULL, last_error = 'Endpoint disabled'
           FROM webhook_endpoints e
          WHERE e.id = d.endpoint_id AND d.status = 'pending' AND e.disabled_at <= $2
            AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= $1)
         RETURNING d.id),
       ended AS (
         UPDATE webhook_deliveries SET payload_enc = NULL, payload_purged_at = $1
          WHERE payload_enc IS NOT NULL AND status <> 'pending' AND finished_at <= $2
         RETURNING id),
       answers AS (
         UPDATE webhook_attempts SET response_excerpt = NULL
          WHERE response_excerpt IS NOT NULL AND delivery_id IN (SELECT id FROM stranded UNION ALL SELECT id FROM ended))
       SELECT (SELECT count(*) FROM stranded)::int + (SELECT count(*) FROM ended)::int AS purged`,
      [now, new Date(now.getTime() - this.config.payloadRetentionMs)],
    );
    if (purged > 0) this.logger.log({ purged }, 'Erased the payloads of finished webhook deliveries');
    return purged;
  }
}
