import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

// A first guess until this replica has timed real deliveries: one round trip to a mail server.
const INITIAL_ESTIMATE_MS = 250;
const WEIGHT_OF_NEWEST = 0.2;

/**
 * Keeps the answer for an unknown phone or e-mail in the timing class of a real one: a real request
 * waits for the mail server or gateway, so an unknown one waits about as long (a moving average of
 * this replica's recent deliveries, ±25 %), and response time does not tell whether a user exists.
 */
export class DeliveryTiming {
  private estimateMs = INITIAL_ESTIMATE_MS;

  record(elapsedMs: number): void {
    this.estimateMs += WEIGHT_OF_NEWEST * (elapsedMs - this.estimateMs);
  }

  async imitate(): Promise<void> {
    const spread = Math.round(this.estimateMs / 4);
    await sleep(Math.max(0, Math.round(this.estimateMs) + randomInt(-spread, spread + 1)));
  }
}
