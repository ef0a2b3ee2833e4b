// By the session's operation, on either channel (docs/webhooks.md, "Events").
export const WEBHOOK_FINAL_EVENT_TYPES = [
  'auth.session.completed',
  'auth.session.failed',
  'sign.session.completed',
  'sign.session.failed',
  'payment.session.completed',
  'payment.session.failed',
  // A verified digital ID card (docs/idcard.md): its session is made finished, so it never fails or moves.
  'idcard.session.completed',
] as const;
// A pending session's hintCode changed; sent only to endpoints that list them (docs/webhooks.md, "Progress events").
export const WEBHOOK_PROGRESS_EVENT_TYPES = ['auth.session.updated', 'sign.session.updated', 'payment.session.updated'] as const;
export const WEBHOOK_EVENT_TYPES = [...WEBHOOK_FINAL_EVENT_TYPES, ...WEBHOOK_PROGRESS_EVENT_TYPES] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** What an endpoint created without `eventTypes` receives: the final events only. */
export const DEFAULT_WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = WEBHOOK_FINAL_EVENT_TYPES;

/** Sent to one endpoint on request from the console, never subscribed to (docs/webhooks.md). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** What a delivery carries: an event endpoints subscribe to, or a test. */
export type WebhookMessageType = WebhookEventType | typeof WEBHOOK_TEST_EVENT;
