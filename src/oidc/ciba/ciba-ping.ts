import { Inject, Injectable, Logger } from '@nestjs/common';
import { webhooksConfig, type WebhooksConfig } from '../../config/webhooks.config.js';
import { nextRetryDelayMs } from '../../webhooks/webhook-retry-policy.js';
import { WebhookSender } from '../../webhooks/webhook-sender.js';

export interface CibaPing {
  endpoint: string;
  clientNotificationToken: string;
  authReqId: string;
  /** After this (ms) the client can no longer redeem the request: no more attempts. */
  until: number;
}

/**
 * Ping mode's notification (CIBA Core 10.2): `{auth_req_id}` with the client's bearer token, through
 * the webhooks' SSRF-safe sender (private targets refused unless WEBHOOK_ALLOW_PRIVATE_TARGETS) and
 * retried on the webhooks' schedule while the request can still be redeemed (docs/oidc.md, "CIBA").
 */
@Injectable()
export class CibaPingSender {
  private readonly logger = new Logger(CibaPingSender.name);

  constructor(
    private readonly sender: WebhookSender,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
  ) {}

  /** Starts the delivery and returns at once: the library's backchannelResult must not wait on the client. */
  send(ping: CibaPing): void {
    void this.attempt(ping, 1);
  }

  private async attempt(ping: CibaPing, attempt: number): Promise<void> {
    const result = await this.sender.send({
      url: ping.endpoint,
      headers: { authorization: `Bearer ${ping.clientNotificationToken}` },
      body: JSON.stringify({ auth_req_id: ping.authReqId }),
    });
    if (result.outcome === 'success') return;
    // The endpoint only, never the token or the request id.
    this.logger.warn(
      { endpoint: new URL(ping.endpoint).origin, attempt, outcome: result.outcome, error: result.error },
      'CIBA ping failed',
    );
    if (result.outcome === 'refused') return;
    const delay = nextRetryDelayMs(attempt, this.config.retryScheduleMs);
    if (delay === null || Date.now() + delay >= ping.until) return;
    setTimeout(() => void this.attempt(ping, attempt + 1), delay).unref();
  }
}
