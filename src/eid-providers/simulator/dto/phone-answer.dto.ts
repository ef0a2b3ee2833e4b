import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsSwedishPersonalNumber } from '../../../common/validation/is-swedish-personal-number.decorator.js';

export const PHONE_ACTIONS = ['approve', 'decline'] as const;

/** POST /api/v1/simulator/phone: the person on the call answers in their e-ID app. */
export class PhoneAnswerDto {
  @ApiProperty({ example: '199001012393', description: 'The person the phone session was started for.' })
  @IsSwedishPersonalNumber()
  personalNumber: string;

  @ApiPropertyOptional({
    enum: PHONE_ACTIONS,
    default: 'approve',
    description: 'approve: confirm the call and sign; decline: "I am not on a call".',
  })
  @IsOptional()
  @IsIn(PHONE_ACTIONS)
  action?: (typeof PHONE_ACTIONS)[number];

  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) @MaxLength(100) name?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) @MaxLength(100) givenName?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) @MaxLength(100) surname?: string;
}
