// By the session's operation, on either channel (docs/webhooks.md, "Events").
export const WEBHOOK_EVENT_TYPES = ['auth.session.completed', 'auth.session.failed', 'sign.session.completed', 'sign.session.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent to one endpoint on request from the console, never subscribed to (docs/webhooks.md). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** What a delivery carries: an event endpoints subscribe to, or a test. */
export type WebhookMessageType = WebhookEventType | typeof WEBHOOK_TEST_EVENT;
