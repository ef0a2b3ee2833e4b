import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsBase64, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { FitsBase64, NON_VISIBLE_DATA_MAX, SIGN_TEXT_MAX_BASE64 } from './sign-and-phone.validators.js';
import { StartSessionDto } from './start-session.dto.js';

/** POST /api/v1/sign/{provider}/start: an app-channel signature (docs/api.md, "Signing and the phone channel"). */
export class StartSignDto extends OmitType(StartSessionDto, ['userVisibleData', 'ageOver'] as const) {
  @ApiProperty({ description: 'Plain text the user signs, shown in the e-ID app; at most what encodes to 40,000 base64 characters.' })
  @IsString()
  @MinLength(1)
  @FitsBase64(SIGN_TEXT_MAX_BASE64)
  userVisibleData: string;

  @ApiPropertyOptional({
    maxLength: NON_VISIBLE_DATA_MAX,
    description: 'Base64 data that is signed but not shown, e.g. a hash of the document.',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(NON_VISIBLE_DATA_MAX)
  @IsBase64(undefined, { message: 'userNonVisibleData must be base64' })
  userNonVisibleData?: string;
}
