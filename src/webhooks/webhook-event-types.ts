// By the session's operation, on either channel (docs/webhooks.md, "Events").
export const WEBHOOK_EVENT_TYPES = ['auth.session.completed', 'auth.session.failed', 'sign.session.completed', 'sign.session.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
