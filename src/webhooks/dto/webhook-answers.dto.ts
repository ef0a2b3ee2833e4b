import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES } from '../webhook-event-types.js';

/** An endpoint as its team sees it: never its secrets (docs/webhooks.md). */
export class WebhookEndpointDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uri', example: 'https://rp.example.com/hooks/eid' })
  url: string;

  @ApiProperty({ type: 'string', nullable: true })
  description: string | null;

  @ApiProperty({ enum: ['test', 'live'], description: 'Receives the events of sessions of this environment only.' })
  environment: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true })
  eventTypes: string[];

  @ApiProperty()
  enabled: boolean;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  disabledAt: string | null;

  @ApiProperty({ type: 'string', enum: ['manual', 'failing', 'gone'], nullable: true })
  disabledReason: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'First failure of the current run of failures.' })
  failingSince: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'After a rotation, the old secret signs too until then.',
  })
  previousSecretExpiresAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class WebhookEndpointWithSecretDto extends WebhookEndpointDto {
  @ApiProperty({ description: 'The signing secret (`whsec_…`): in this answer only.', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  secret: string;
}

export class WebhookEndpointListDto {
  @ApiProperty({ type: [WebhookEndpointDto] })
  data: WebhookEndpointDto[];
}

export class WebhookAttemptDto {
  @ApiProperty({ type: 'integer' })
  number: number;

  @ApiProperty({ format: 'date-time' })
  attemptedAt: string;

  @ApiProperty({ enum: ['scheduled', 'manual'] })
  trigger: string;

  @ApiProperty({ enum: ['success', 'http_error', 'timeout', 'network_error', 'refused'] })
  outcome: string;

  @ApiPropertyOptional({ type: 'integer' })
  statusCode?: number;

  @ApiProperty({ type: 'integer' })
  latencyMs: number;

  @ApiPropertyOptional()
  error?: string;

  @ApiPropertyOptional({ description: "The start of the receiver's answer." })
  responseExcerpt?: string;
}

export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ description: 'The `webhook-id` header: the same on every attempt.', example: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W' })
  messageId: string;

  @ApiProperty({ format: 'uuid' })
  endpointId: string;

  @ApiProperty({ format: 'uri' })
  url: string;

  @ApiProperty({ enum: ['test', 'live'] })
  environment: string;

  @ApiProperty({ format: 'uuid' })
  sessionId: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES })
  eventType: string;

  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] })
  status: string;

  @ApiProperty({ type: 'integer' })
  attemptCount: number;

  @ApiPropertyOptional({ type: 'integer' })
  lastStatusCode?: number;

  @ApiPropertyOptional()
  lastError?: string;

  @ApiProperty({ format: 'date-time' })
  eventAt: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiPropertyOptional({ format: 'date-time' })
  lastAttemptAt?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  nextAttemptAt?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  deliveredAt?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'When the payload (personal data) was erased: no redelivery after it.' })
  payloadPurgedAt?: string;

  @ApiProperty({ type: [WebhookAttemptDto] })
  attempts: WebhookAttemptDto[];
}

export class WebhookDeliveryListingDto {
  @ApiProperty({ enum: [true] })
  success: boolean;

  @ApiProperty({ type: [WebhookDeliveryDto] })
  rows: WebhookDeliveryDto[];

  @ApiProperty({ description: '-1 while more rows exist; otherwise the total row count.', example: -1 })
  lastrow: number;
}

/** A queued `webhook.test` message: it shows in the delivery log like any other (docs/webhooks.md). */
export class QueuedTestEventDto {
  @ApiProperty({ format: 'uuid', description: 'The delivery to look for in the delivery log.' })
  deliveryId: string;

  @ApiProperty({ example: 'msg_2a9Qx7wTz0', description: 'The `webhook-id` header the receiver will see.' })
  messageId: string;
}
