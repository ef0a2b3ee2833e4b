import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsIP,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  registerDecorator,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import { PROVIDER_API_DOCS } from '../../../eid-providers/provider-api-docs.js';
import { ProviderStartOptionsDto } from '../../../eid-providers/provider-start-options.dto.js';
import { AGE_THRESHOLDS, type AgeThreshold } from '../../session-age.js';
import { RETURN_URL_MAX_INPUT_LENGTH, RETURN_URL_TOO_LONG } from '../return-url.js';
import { AppDeviceDto, WebDeviceDto } from './device-data.dto.js';

const METADATA_MAX_BYTES = 1024;

/** A flat object of strings, numbers, booleans or nulls, at most 1 KiB as JSON (docs/api.md). */
function IsFlatMetadata(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isFlatMetadata',
      target: target.constructor,
      propertyName,
      options: { message: `metadata must be a flat object of scalar values, at most ${METADATA_MAX_BYTES} bytes as JSON`, ...options },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.values(value).every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v)) &&
          Buffer.byteLength(JSON.stringify(value)) <= METADATA_MAX_BYTES,
      },
    });
}

/** web and app describe the same device: a body carries one of them at most (docs/api.md, "Device data"). */
function NotWithWeb(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'notWithWeb',
      target: target.constructor,
      propertyName,
      options: { message: 'give web or app, not both', ...options },
      validator: { validate: (value: unknown, args) => value === undefined || (args?.object as { web?: unknown }).web === undefined },
    });
}

/** Provider-specific fields come from the providers' fragments (ProviderStartOptionsDto). */
export class StartSessionDto extends ProviderStartOptionsDto {
  @ApiProperty({ example: '192.0.2.10', description: "The end user's IP address, IPv4 or IPv6, as your backend sees it." })
  @IsIP(undefined, { message: 'endUserIp must be an IPv4 or IPv6 address' })
  endUserIp: string;

  @ApiPropertyOptional({ maxLength: 1500, description: 'Plain text the e-ID app shows the user.' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(1500)
  userVisibleData?: string;

  @ApiPropertyOptional({
    enum: ['plaintext', 'simpleMarkdownV1'],
    default: 'plaintext',
    description: 'How the app renders userVisibleData.',
  })
  @IsOptional()
  @IsIn(['plaintext', 'simpleMarkdownV1'])
  userVisibleDataFormat?: 'plaintext' | 'simpleMarkdownV1';

  @ApiPropertyOptional({
    maxLength: RETURN_URL_MAX_INPUT_LENGTH,
    example: 'https://rp.example/login/return',
    description:
      'Same-device flows: where the e-ID app returns the user (https; http outside production). The service appends eidgw_nonce; ' +
      'your page sends it to POST /api/v1/auth/{sessionId}/return (docs/same-device.md).',
  })
  @IsOptional()
  @IsString()
  @MaxLength(RETURN_URL_MAX_INPUT_LENGTH, { message: RETURN_URL_TOO_LONG })
  @Matches(/^[a-z][a-z0-9+.-]*:\/\/\S+$/i, { message: 'returnUrl must be an absolute URL' })
  returnUrl?: string;

  @ApiPropertyOptional({
    default: false,
    description: 'Replace an order nobody picked up (startFailed) with a new one under the same session, until the session expires.',
  })
  @IsOptional()
  @IsBoolean()
  autoRenew?: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: PROVIDER_API_DOCS.requirement,
  })
  @IsOptional()
  @IsObject()
  requirement?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: WebDeviceDto,
    description: "Device data of the person's browser, for the provider's risk assessment (not with app).",
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => WebDeviceDto)
  web?: WebDeviceDto;

  @ApiPropertyOptional({
    type: AppDeviceDto,
    description: "Device data of your native app on the person's device, for the provider's risk assessment (not with web).",
  })
  @IsOptional()
  @IsObject()
  @NotWithWeb()
  @ValidateNested()
  @Type(() => AppDeviceDto)
  app?: AppDeviceDto;

  @ApiPropertyOptional({
    enum: AGE_THRESHOLDS,
    description:
      'Age only (docs/age-verification.md): the session answers, signs and sends whether the person is this old or older ' +
      '(ageVerification), never who they are.',
  })
  @IsOptional()
  @IsIn(AGE_THRESHOLDS, { message: `ageOver must be one of ${AGE_THRESHOLDS.join(', ')}` })
  ageOver?: AgeThreshold;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
    example: { orderId: 'A-1001' },
    description: 'Your own flat key/values, echoed in webhooks (≤ 1 KiB).',
  })
  @IsOptional()
  @IsFlatMetadata()
  metadata?: Record<string, string | number | boolean | null>;
}
