import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SessionStateDto } from './session-answers.dto.js';

/** The session event types the documentation lists (sessions write them to the webhook outbox); the relay sends those an endpoint subscribed to (docs/webhooks.md). */
export const DOCUMENTED_WEBHOOK_EVENTS = [
  { type: 'auth.session.completed', summary: 'An identification ended: the end user was identified' },
  { type: 'auth.session.failed', summary: 'An identification ended otherwise (userCancel, cancelled, expiredTransaction, …)' },
  { type: 'auth.session.updated', summary: "A pending identification's hintCode changed (only to endpoints that list it)" },
  { type: 'sign.session.completed', summary: 'A signing ended: the end user signed' },
  { type: 'sign.session.failed', summary: 'A signing ended otherwise' },
  { type: 'sign.session.updated', summary: "A pending signing's hintCode changed (only to endpoints that list it)" },
  { type: 'payment.session.completed', summary: 'A payment ended: the end user approved it' },
  { type: 'payment.session.failed', summary: 'A payment ended otherwise (userCancel, riskTooHigh, …)' },
  { type: 'payment.session.updated', summary: "A pending payment's hintCode changed (only to endpoints that list it)" },
  { type: 'idcard.session.completed', summary: 'A digital ID card was verified (docs/idcard.md)' },
] as const;

/** The event's `data`: the poll answer of the session plus the RP's `metadata`. */
export class WebhookEventDataDto extends SessionStateDto {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
    example: { orderId: 'A-1001' },
    description: 'The `metadata` given at start, as it was given.',
  })
  metadata?: Record<string, string | number | boolean | null>;
}

export class WebhookEventDto {
  @ApiProperty({ enum: DOCUMENTED_WEBHOOK_EVENTS.map((event) => event.type), example: 'auth.session.completed' })
  type: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When the session ended (or, for `*.updated`, its hintCode changed), not when this attempt was made.',
  })
  timestamp: string;

  @ApiProperty({ type: WebhookEventDataDto })
  data: WebhookEventDataDto;
}
