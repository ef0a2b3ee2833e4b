import { ApiProperty } from '@nestjs/swagger';
import { API_KEY_SCOPES } from '../api-key.entity.js';

/** A key as the management API shows it: prefix and last four identify it, never the secret. */
export class ApiKeyDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  teamId: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'checkout backend' })
  name: string | null;

  @ApiProperty({ enum: ['test', 'live'] })
  environment: string;

  @ApiProperty({ example: 'eidk_test_Ab12' })
  displayPrefix: string;

  @ApiProperty({ example: 'wxyz' })
  lastFour: string;

  @ApiProperty({ enum: API_KEY_SCOPES, isArray: true })
  scopes: string[];

  @ApiProperty({ type: 'integer', nullable: true, description: 'Requests per sliding minute; null: no limit.' })
  perMinuteLimit: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Requests per calendar month (UTC); null: no limit.' })
  monthlyLimit: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Distinct client IP addresses per calendar month (UTC); null: no limit.' })
  ipLimit: number | null;

  @ApiProperty({
    enum: ['low', 'moderate'],
    nullable: true,
    description: 'The highest risk a completion may have; above it the session fails riskTooHigh. null: any risk.',
  })
  maxRisk: 'low' | 'moderate' | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  validUntil: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  blockedUntil: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  revokedAt: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description:
      'When the key last authenticated a request, to within a minute: a real use at most 60 s before the last one, written within the flush interval (10 s by default). null: never used.',
  })
  lastUsedAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({
    description: 'The secret key: in this answer only, store it now.',
    example: 'eidk_test_Ab12cd34ef56gh78ij90kl12mn34op56wxyz',
  })
  key: string;
}

class ApiKeyUsageDto {
  @ApiProperty({ type: 'integer', description: 'Requests counted this calendar month (UTC).' })
  requests: number;

  @ApiProperty({ type: 'integer', description: 'Distinct client addresses seen this calendar month (UTC).' })
  addresses: number;
}

/** A key in the team's listing: its limits beside what it used this month (docs/api.md). */
export class ListedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ type: ApiKeyUsageDto })
  usageThisMonth: ApiKeyUsageDto;
}
