import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayNotEmpty, ArrayUnique, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { API_KEY_ENVIRONMENTS, type ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { WEBHOOK_URL_MAX_LENGTH } from '../webhook-endpoints.service.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhook-event-types.js';

export const DESCRIPTION_MAX_LENGTH = 500;

export class CreateWebhookEndpointDto {
  @ApiProperty({
    example: 'https://rp.example.com/webhooks/eid',
    description: 'http(s) URL on a public address; https only in production.',
  })
  @IsString()
  @MaxLength(WEBHOOK_URL_MAX_LENGTH)
  url: string;

  @ApiPropertyOptional({
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
    description: 'Default: the `*.completed` and `*.failed` event types; `*.updated` only when listed.',
  })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: `each event type must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` })
  eventTypes?: WebhookEventType[];

  @ApiPropertyOptional({
    enum: API_KEY_ENVIRONMENTS,
    default: 'test',
    description: 'Sessions started with keys of this environment are sent here.',
  })
  @IsOptional()
  @IsIn(API_KEY_ENVIRONMENTS)
  environment?: ApiKeyEnvironment;

  @ApiPropertyOptional({ maxLength: DESCRIPTION_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX_LENGTH)
  description?: string;
}
