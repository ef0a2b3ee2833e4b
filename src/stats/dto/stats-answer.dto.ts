import { ApiProperty } from '@nestjs/swagger';
import { API_KEY_ENVIRONMENTS } from '../../api-keys/api-key-format.js';
import { UserMessageDto } from '../../sessions/api/dto/session-answers.dto.js';
import { STATS_RANGES } from '../stats-range.js';

const COUNT = { type: 'integer', minimum: 0 } as const;
const MS = { type: 'integer', nullable: true, description: 'Milliseconds; null when there is nothing to measure.' } as const;

class OutcomeCountsDto {
  @ApiProperty({ ...COUNT, description: 'Completed.' })
  complete: number;

  @ApiProperty({ ...COUNT, description: 'Failed for another reason than a cancel or expiry (see topFailures).' })
  failed: number;

  @ApiProperty({ ...COUNT, description: 'Failed with hintCode cancelled (by the RP) or userCancel.' })
  cancelled: number;

  @ApiProperty({ ...COUNT, description: 'Failed with hintCode expiredTransaction.' })
  expired: number;

  @ApiProperty({ ...COUNT, description: 'Not ended yet.' })
  pending: number;
}

class SessionBucketDto extends OutcomeCountsDto {
  @ApiProperty({ format: 'date-time', description: 'The start of the hour or UTC day.' })
  start: string;
}

class ProviderCountsDto extends OutcomeCountsDto {
  @ApiProperty({ example: 'bankid' })
  provider: string;

  @ApiProperty(COUNT)
  total: number;
}

class FailureDto {
  @ApiProperty({ example: 'startFailed' })
  hintCode: string;

  @ApiProperty({ example: 'bankid' })
  provider: string;

  @ApiProperty(COUNT)
  count: number;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'RFA17B',
    description: "The code of the user message shown for it beside a QR code, from the provider's message table (docs/providers.md).",
  })
  userMessageCode: string | null;

  @ApiProperty({
    type: UserMessageDto,
    nullable: true,
    description: 'That message with its Swedish and English text; null for a provider this deployment no longer enables.',
  })
  userMessage: UserMessageDto | null;
}

class DurationDto {
  @ApiProperty(MS)
  median: number | null;

  @ApiProperty(MS)
  p95: number | null;
}

class SessionStatsDto {
  @ApiProperty({ ...COUNT, description: 'Sessions started in the range.' })
  total: number;

  @ApiProperty({ type: OutcomeCountsDto })
  byOutcome: OutcomeCountsDto;

  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    maximum: 1,
    description: 'Completed among the ended ones; null when none ended.',
  })
  shareCompleted: number | null;

  @ApiProperty({ type: [SessionBucketDto], description: 'Every bucket of the range, oldest first, empty ones included.' })
  series: SessionBucketDto[];

  @ApiProperty({ type: [ProviderCountsDto], description: 'The most used provider first.' })
  byProvider: ProviderCountsDto[];

  @ApiProperty({ type: [FailureDto], description: 'At most 10 (provider, hintCode) pairs of failed sessions, the most frequent first.' })
  topFailures: FailureDto[];

  @ApiProperty({ type: DurationDto, description: 'Time from start to completion of the completed sessions.' })
  completionMs: DurationDto;
}

class DeliveryCountsDto {
  @ApiProperty(COUNT)
  delivered: number;

  @ApiProperty(COUNT)
  failed: number;

  @ApiProperty(COUNT)
  pending: number;
}

class DeliveryBucketDto extends DeliveryCountsDto {
  @ApiProperty({ format: 'date-time' })
  start: string;
}

class WebhookStatsDto {
  @ApiProperty({ ...COUNT, description: "Messages created in the range for the environment's endpoints." })
  total: number;

  @ApiProperty({ type: DeliveryCountsDto })
  byOutcome: DeliveryCountsDto;

  @ApiProperty({ type: [DeliveryBucketDto] })
  series: DeliveryBucketDto[];

  @ApiProperty({ ...COUNT, description: 'HTTP attempts of those messages.' })
  attempts: number;

  @ApiProperty({ type: DurationDto, description: 'Latency of those attempts.' })
  latencyMs: DurationDto;
}

class KeyUsageDto {
  @ApiProperty(COUNT)
  requests: number;

  @ApiProperty(COUNT)
  addresses: number;
}

class KeyStatsDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', nullable: true })
  name: string | null;

  @ApiProperty({ example: 'eidk_test_Ab12' })
  displayPrefix: string;

  @ApiProperty({ example: 'wxyz' })
  lastFour: string;

  @ApiProperty({ type: 'integer', nullable: true })
  perMinuteLimit: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  monthlyLimit: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  ipLimit: number | null;

  @ApiProperty({ type: KeyUsageDto, description: 'This calendar month (UTC).' })
  usageThisMonth: KeyUsageDto;
}

/** The console's overview of one environment (docs/console.md, "Overview"). */
export class StatsDto {
  @ApiProperty({ enum: API_KEY_ENVIRONMENTS })
  environment: string;

  @ApiProperty({ enum: STATS_RANGES })
  range: string;

  @ApiProperty({ enum: ['hour', 'day'] })
  bucket: string;

  @ApiProperty({ format: 'date-time' })
  from: string;

  @ApiProperty({ format: 'date-time' })
  to: string;

  @ApiProperty({ type: SessionStatsDto })
  sessions: SessionStatsDto;

  @ApiProperty({ type: WebhookStatsDto })
  webhooks: WebhookStatsDto;

  @ApiProperty({ type: [KeyStatsDto], description: "The environment's active keys with their limits and usage." })
  apiKeys: KeyStatsDto[];
}
