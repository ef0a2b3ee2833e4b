import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { DataCipher } from '../common/crypto/data-cipher.js';
import { webhooksConfig, type WebhooksConfig } from '../config/webhooks.config.js';
import { WebhookDeliveryStore, type ClaimedDelivery } from './webhook-delivery.store.js';
import { payloadAad, previousSecretAad, secretAad } from './webhook-encryption.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { nextRetryDelayMs } from './webhook-retry-policy.js';
import { WebhookSender } from './webhook-sender.js';
import { signWebhook } from './webhook-signer.js';
import { afterCommit } from '../database/unit-of-work.js';

/** Sends in flight per replica; more due messages wait for a free slot (or another replica). */
export const MAX_IN_FLIGHT = 64;
/**
 * How long a claim outlives the attempt's own deadline. A send is aborted at WEBHOOK_TIMEOUT, so
 * once the lease has run out the first sender has certainly stopped: a message is never sent by
 * two workers at the same time, even when one of them hangs or dies.
 */
export const LEASE_MARGIN_MS = 5_000;

/**
 * Delivers due messages: claims them, signs and sends outside any transaction, records the
 * outcome. Woken by new messages (in-process, right after the commit) and by a poll for retries
 * and for work other replicas left behind.
 */
@Injectable()
export class WebhookDispatcher implements BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly inFlight = new Set<Promise<void>>();
  /** Attempts in flight by endpoint id: each endpoint's share is capped (docs/webhooks.md, fairness). */
  private readonly inFlightByEndpoint = new Map<string, number>();
  private pumping: Promise<void> | null = null;
  private wakeAgain = false;
  /** The last claim filled every free slot, so more may be due as soon as one frees. */
  private saturated = false;
  /** Endpoints whose last claim filled their share: more of theirs may be due as soon as a slot frees. */
  private readonly endpointsAtCap = new Set<string>();
  private stopping = false;

  constructor(
    private readonly store: WebhookDeliveryStore,
    private readonly sender: WebhookSender,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    private readonly metrics: WebhookMetrics,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
  ) {}

  /** Looks for due messages now; cheap to call often (calls during a look coalesce into one more). */
  wake(): void {
    // Inside a unit of work (an audited route, docs/audit.md) what there is to send is visible only
    // after its commit, and the claims must not run on the route's own transaction.
    void afterCommit(() => Promise.resolve(this.pumpNow()));
  }

  private pumpNow(): void {
    if (this.stopping) return;
    if (this.pumping) {
      this.wakeAgain = true;
      return;
    }
    this.pumping = this.pump()
      .catch((error: unknown) => this.logger.error({ err: error }, 'Claiming due webhooks failed'))
      .finally(() => {
        this.pumping = null;
        if (this.wakeAgain) {
          this.wakeAgain = false;
          this.wake();
        }
      });
  }

  /** Resolves when nothing is being claimed or sent (tests, and shutdown). */
  async idle(): Promise<void> {
    while (this.pumping || this.inFlight.size > 0) await Promise.all([this.pumping, ...this.inFlight]);
  }

  /** docs/operations.md: a graceful shutdown lets attempts in flight finish and be recorded (each is bounded by the timeout). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.idle();
    await this.sender.close();
  }

  private async pump(): Promise<void> {
    while (!this.stopping) {
      const free = MAX_IN_FLIGHT - this.inFlight.size;
      if (free <= 0) return;
      // The counts the claim sees: attempts that finish while it runs change the live map, not these.
      const seen = new Map(this.inFlightByEndpoint);
      const claims = await this.store.claimDue(free, this.clock.now(), this.config.timeoutMs + LEASE_MARGIN_MS, {
        cap: this.config.endpointConcurrency,
        inFlight: seen,
      });
      this.saturated = claims.length === free;
      this.noteEndpointsAtCap(claims, seen);
      for (const claim of claims) this.track(claim, this.deliver(claim));
      if (!this.saturated) return;
    }
  }

  private track(claim: ClaimedDelivery, delivery: Promise<void>): void {
    const endpoint = claim.endpointId;
    this.inFlight.add(delivery);
    this.inFlightByEndpoint.set(endpoint, (this.inFlightByEndpoint.get(endpoint) ?? 0) + 1);
    void delivery.finally(() => {
      this.inFlight.delete(delivery);
      const count = this.inFlightByEndpoint.get(endpoint) ?? 1;
      if (count <= 1) this.inFlightByEndpoint.delete(endpoint);
      else this.inFlightByEndpoint.set(endpoint, count - 1);
      // A slot freed where more may be waiting: the next due message goes now rather than at the next poll.
      if (this.saturated || this.endpointsAtCap.has(endpoint)) this.wake();
    });
  }

  /**
   * From the in-flight counts the claim saw (`seen`), not the live ones: an attempt that finished
   * while the claim ran has already asked for the next look (wakeAgain), and judged by the live count
   * its endpoint would lose its mark, so the attempts that finish after would not wake the dispatcher
   * and the rest of a burst would wait for the poll. An endpoint that had no room keeps its mark; one
   * that had room is marked when the claim filled it.
   */
  private noteEndpointsAtCap(claims: ClaimedDelivery[], seen: ReadonlyMap<string, number>): void {
    const cap = this.config.endpointConcurrency;
    const claimed = new Map<string, number>();
    for (const { endpointId } of claims) claimed.set(endpointId, (claimed.get(endpointId) ?? 0) + 1);
    for (const endpoint of this.endpointsAtCap) {
      if ((seen.get(endpoint) ?? 0) < cap && !claimed.has(endpoint)) this.endpointsAtCap.delete(endpoint);
    }
    for (const [endpoint, count] of claimed) {
      if ((seen.get(endpoint) ?? 0) + count >= cap) this.endpointsAtCap.add(endpoint);
      else this.endpointsAtCap.delete(endpoint);
    }
  }

  private async deliver(claim: ClaimedDelivery): Promise<void> {
    const log = { deliveryId: claim.id, endpointId: claim.endpointId, teamId: claim.teamId, attempt: claim.attemptCount };
    try {
      const body = this.cipher.decrypt(claim.payloadEnc, payloadAad(claim.id));
      const sentAt = this.clock.now();
      const headers = signWebhook(claim.messageId, sentAt, body, this.signingSecrets(claim, sentAt));
      const result = await this.sender.send({ url: claim.url, headers, body });
      const now = this.clock.now();
      const retryDelayMs = claim.trigger === 'manual' ? null : nextRetryDelayMs(claim.attemptCount, this.config.retryScheduleMs);
      const recorded = await this.store.record(claim, result, now, retryDelayMs);

      this.metrics.attempted(result.outcome, result.latencyMs);
      if (recorded.status === 'delivered' && claim.trigger === 'scheduled') this.metrics.delivered(claim.eventAt, now);
      const outcome = {
        ...log,
        outcome: result.outcome,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        status: recorded.status,
      };
      if (result.outcome === 'success') this.logger.debug(outcome, 'Webhook delivered');
      else this.logger.warn({ ...outcome, error: result.error, nextAttemptAt: recorded.nextAttemptAt }, 'Webhook attempt failed');
      if (recorded.status === 'lease_lost')
        this.logger.warn(log, 'Webhook lease ran out before the attempt was recorded; another worker owns it');
      if (recorded.endpointDisabled) {
        this.metrics.endpointDisabled(recorded.endpointDisabled);
        this.logger.warn({ ...log, reason: recorded.endpointDisabled }, 'Webhook endpoint disabled');
      }
    } catch (error) {
      // The lease runs out and the message is tried again; nothing is lost.
      this.logger.error({ ...log, err: error }, 'Webhook attempt could not be completed');
    }
  }

  private signingSecrets(claim: ClaimedDelivery, now: Date): string[] {
    const secrets = [this.cipher.decrypt(claim.secretEnc, secretAad(claim.endpointId))];
    if (claim.previousSecretEnc && claim.previousSecretExpiresAt && claim.previousSecretExpiresAt > now) {
      secrets.push(this.cipher.decrypt(claim.previousSecretEnc, previousSecretAad(claim.endpointId)));
    }
    return secrets;
  }
}
