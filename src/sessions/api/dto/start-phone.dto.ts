import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsBase64, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsSwedishPersonalNumber } from '../../../common/validation/is-swedish-personal-number.decorator.js';
import { FitsBase64, NON_VISIBLE_DATA_MAX, SIGN_TEXT_MAX_BASE64 } from './sign-and-phone.validators.js';
import { StartSessionDto } from './start-session.dto.js';

export const CALL_INITIATORS = ['user', 'RP'] as const;

/**
 * POST /api/v1/phone/auth/{provider}/start: the user is on a call with the RP, so there is no
 * end-user IP and no QR; the provider asks that person's app to confirm the call (docs/api.md).
 */
export class StartPhoneAuthDto extends PickType(StartSessionDto, [
  'userVisibleData',
  'userVisibleDataFormat',
  'requirement',
  'metadata',
  'ageOver',
] as const) {
  @ApiProperty({ example: '199001012393', description: 'The person on the call: 12 digits, YYYYMMDDNNNN, with a valid check digit.' })
  @IsSwedishPersonalNumber()
  personalNumber: string;

  @ApiProperty({ enum: CALL_INITIATORS, description: 'Who made the call: the user, or the RP (your call centre).' })
  @IsIn(CALL_INITIATORS)
  callInitiator: (typeof CALL_INITIATORS)[number];
}

/** POST /api/v1/phone/sign/{provider}/start: a signature by the person on the call. */
export class StartPhoneSignDto extends PickType(StartPhoneAuthDto, [
  'personalNumber',
  'callInitiator',
  'userVisibleDataFormat',
  'requirement',
  'metadata',
] as const) {
  @ApiProperty({ description: 'Plain text the user signs, shown in the e-ID app; at most what encodes to 40,000 base64 characters.' })
  @IsString()
  @MinLength(1)
  @FitsBase64(SIGN_TEXT_MAX_BASE64)
  userVisibleData: string;

  @ApiPropertyOptional({ maxLength: NON_VISIBLE_DATA_MAX, description: 'Base64 data that is signed but not shown.' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(NON_VISIBLE_DATA_MAX)
  @IsBase64(undefined, { message: 'userNonVisibleData must be base64' })
  userNonVisibleData?: string;
}
