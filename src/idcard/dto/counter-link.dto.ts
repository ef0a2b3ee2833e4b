import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { API_KEY_ENVIRONMENTS, type ApiKeyEnvironment } from '../../api-keys/api-key-format.js';

/** POST /api/v1/counter-links (docs/idcard.md, "Counter links"). */
export class CreateCounterLinkDto {
  @ApiProperty({ example: 'Till 3, Storgatan', description: 'What the console lists the link as.' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  label: string;

  @ApiPropertyOptional({ enum: API_KEY_ENVIRONMENTS, default: 'test' })
  @IsOptional()
  @IsIn(API_KEY_ENVIRONMENTS)
  environment?: ApiKeyEnvironment;

  @ApiPropertyOptional({ example: 'bankid', default: 'bankid', description: 'The e-ID provider whose ID cards the counter verifies.' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  provider?: string;
}

export class CounterLinkDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  label: string;

  @ApiProperty({ enum: API_KEY_ENVIRONMENTS })
  environment: string;

  @ApiProperty({ example: 'bankid' })
  provider: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time', type: 'string', nullable: true })
  revokedAt: string | null;
}

export class CreatedCounterLinkDto extends CounterLinkDto {
  @ApiProperty({
    example: 'https://eid.example.com/kiosk/counter#t=eidc_…',
    description: 'The counter link, its token in the fragment: shown once, open it on the counter device.',
  })
  url: string;
}

export class CounterLinkListDto {
  @ApiProperty({ type: [CounterLinkDto] })
  data: CounterLinkDto[];
}

/** What the counter page shows of a verified card. */
export class CounterAnswerDto {
  @ApiProperty({ format: 'uuid' })
  sessionId: string;

  @ApiProperty({ description: 'Both signatures of the verification verified (docs/idcard.md).' })
  verified: boolean;

  @ApiPropertyOptional({ example: 'Anna Andersson' })
  name?: string;

  @ApiPropertyOptional({ example: 36 })
  age?: number;

  @ApiPropertyOptional({
    description:
      'An age-only check (`ageOver` asked): whether the holder is that old or older, without name or age; `result` null when unknown.',
    example: { ageOver: 18, result: true },
  })
  ageVerification?: { ageOver: number; result: boolean | null };
}
