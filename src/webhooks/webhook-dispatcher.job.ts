import { Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { WebhookDispatcher } from './webhook-dispatcher.js';

/** New messages wake the dispatcher at once; this poll finds retries that fell due and work other replicas left. */
export const DISPATCH_POLL_INTERVAL_MS = 1_000;

@Injectable()
export class WebhookDispatcherJob {
  constructor(private readonly dispatcher: WebhookDispatcher) {}

  @Interval(DISPATCH_POLL_INTERVAL_MS)
  dispatchDueWebhooks(): void {
    this.dispatcher.wake();
  }
}
