import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayNotEmpty, ArrayUnique, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { WEBHOOK_URL_MAX_LENGTH } from '../webhook-endpoints.service.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhook-event-types.js';
import { DESCRIPTION_MAX_LENGTH } from './create-webhook-endpoint.dto.js';

export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(WEBHOOK_URL_MAX_LENGTH)
  url?: string;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENT_TYPES, isArray: true })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: `each event type must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` })
  eventTypes?: WebhookEventType[];

  @ApiPropertyOptional({ nullable: true, description: 'null clears it.' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsString()
  @MaxLength(DESCRIPTION_MAX_LENGTH)
  description?: string | null;

  @ApiPropertyOptional({ description: 'false pauses deliveries (pending ones wait); true resumes them and forgives past failures.' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}
