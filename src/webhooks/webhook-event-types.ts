export const WEBHOOK_EVENT_TYPES = ['auth.session.completed', 'auth.session.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
