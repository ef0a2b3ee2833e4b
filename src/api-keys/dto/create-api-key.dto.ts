import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayUnique, IsArray, IsDate, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { API_KEY_ENVIRONMENTS, type ApiKeyEnvironment } from '../api-key-format.js';
import { API_KEY_MAX_RISKS, API_KEY_SCOPES, type ApiKeyMaxRisk, type ApiKeyScope } from '../api-key.entity.js';

const MAX_LIMIT = 2_147_483_647;

export class CreateApiKeyDto {
  @ApiPropertyOptional({ example: 'checkout backend', maxLength: 100 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ enum: API_KEY_ENVIRONMENTS, default: 'test' })
  @IsOptional()
  @IsIn(API_KEY_ENVIRONMENTS)
  environment?: ApiKeyEnvironment;

  @ApiPropertyOptional({ enum: API_KEY_SCOPES, isArray: true, default: ['sessions:read', 'sessions:write'] })
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(API_KEY_SCOPES, { each: true })
  scopes?: ApiKeyScope[];

  @ApiPropertyOptional({ minimum: 1, description: 'Requests per sliding 60 s.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_LIMIT)
  perMinuteLimit?: number;

  @ApiPropertyOptional({ minimum: 1, description: 'Requests per calendar month (UTC).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_LIMIT)
  monthlyLimit?: number;

  @ApiPropertyOptional({ minimum: 1, description: 'Distinct client IP addresses per calendar month (UTC).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_LIMIT)
  ipLimit?: number;

  @ApiPropertyOptional({
    enum: API_KEY_MAX_RISKS,
    description:
      "The highest risk the e-ID provider may judge a completion (BankID's risk indication): above it the session fails " +
      'with hintCode riskTooHigh and no user. Absent: any risk is accepted.',
  })
  @IsOptional()
  @IsIn(API_KEY_MAX_RISKS)
  maxRisk?: ApiKeyMaxRisk;

  @ApiPropertyOptional({ example: '2027-01-31T00:00:00Z', description: 'ISO 8601; the key answers 403 api_key_expired after it.' })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'validUntil must be an ISO 8601 date-time' })
  validUntil?: Date;
}
