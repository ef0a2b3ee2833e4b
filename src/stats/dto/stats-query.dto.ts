import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { API_KEY_ENVIRONMENTS, type ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { STATS_RANGES, type StatsRange } from '../stats-range.js';

export class StatsQueryDto {
  @ApiProperty({ enum: API_KEY_ENVIRONMENTS, description: 'The figures of one environment: test and live are never added up.' })
  @IsIn(API_KEY_ENVIRONMENTS)
  environment: ApiKeyEnvironment;

  @ApiProperty({
    enum: STATS_RANGES,
    description: '24h: 24 hourly buckets; 7d and 30d: UTC days. The last bucket is the current one so far.',
  })
  @IsIn(STATS_RANGES)
  range: StatsRange;
}
