import { Inject, Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../common/clock/clock.js';
import { PurgeJob } from '../common/jobs/purge-job.js';
import { webhooksConfig, type WebhooksConfig } from '../config/webhooks.config.js';
import { WebhookDeliveryStore } from './webhook-delivery.store.js';

/**
 * docs/webhooks.md (retention): webhook payloads carry the identity of the session, so they are
 * erased like the session's personal data once the delivery has ended (delivered or failed) for the
 * retention period, and so are the receivers' answers in its attempt log. A message that can no
 * longer be delivered because its endpoint is disabled ends as failed, on the same schedule counted
 * from the disabling. The log row (status, attempts, times) stays; such a delivery can no longer be
 * redelivered.
 */
@Injectable()
export class WebhookPayloadPurgeJob extends PurgeJob {
  protected readonly subject = 'payloads of finished webhook deliveries';

  constructor(
    private readonly deliveries: WebhookDeliveryStore,
    private readonly clock: Clock,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
  ) {
    super();
  }

  @Interval(60_000)
  purgeDeliveredPayloads(): Promise<number> {
    return this.purge();
  }

  protected purgeDue(): Promise<number> {
    const now = this.clock.now();
    return this.deliveries.purgePayloads(now, new Date(now.getTime() - this.config.payloadRetentionMs));
  }
}
