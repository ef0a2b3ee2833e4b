import { ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { CreateWebhookEndpointDto, DESCRIPTION_MAX_LENGTH } from './create-webhook-endpoint.dto.js';

// The environment is fixed at creation; the description may be cleared with null.
export class UpdateWebhookEndpointDto extends PartialType(OmitType(CreateWebhookEndpointDto, ['environment', 'description'] as const)) {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX_LENGTH, description: 'null clears it.' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsString()
  @MaxLength(DESCRIPTION_MAX_LENGTH)
  description?: string | null;

  @ApiPropertyOptional({ description: 'false pauses deliveries (pending ones wait); true resumes them and forgives past failures.' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}
