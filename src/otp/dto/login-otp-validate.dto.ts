import { ApiProperty } from '@nestjs/swagger';
import { IsUUID, Matches } from 'class-validator';
import { CODE_PATTERN } from '../otp-code.js';

export class LoginOtpValidateDto {
  @ApiProperty({ example: '7f1d2f0a-4b7c-4a7e-9b1e-2d7c5c1e0a11', description: 'The userGuid of the login-otp answer.' })
  @IsUUID('all', { message: 'userGuid must be a GUID' })
  userGuid: string;

  @ApiProperty({ example: '042917', description: 'The six digits the user received.' })
  // Matches also refuses a non-string: one message for every wrong shape.
  @Matches(CODE_PATTERN, { message: 'validationCode must be the six digits the user received' })
  validationCode: string;
}
