import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

export class InclusionProofQueryDto {
  @ApiProperty({
    description: 'Lower-case hex of the leaf hash: SHA-256(0x00 ‖ SHA-256(result token)), RFC 9162 section 2.1.1.',
    pattern: '^[0-9a-f]{64}$',
  })
  @Matches(/^[0-9a-f]{64}$/, { message: 'leaf must be 64 lower-case hex digits' })
  leaf: string;

  @ApiPropertyOptional({ minimum: 1, description: 'The tree size to prove against; default: the latest signed tree head.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  size?: number;
}

export class ConsistencyProofQueryDto {
  @ApiProperty({ minimum: 1, description: 'The size of the older tree head.' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  from: number;

  @ApiProperty({ minimum: 1, description: 'The size of the newer tree head, at most the latest signed one.' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  to: number;
}
