import { ApiProperty } from '@nestjs/swagger';

// Times without a zone (UTC), as the v1/v2 APIs answer them (docs/otp-and-tokens.md).
const ZONELESS_UTC = { example: '2026-11-21T10:05:00', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?$' };

export class LoginOtpAnswerDto {
  @ApiProperty({ format: 'uuid', description: 'Pass it to login-otp-validate; the same shape for unknown contacts.' })
  userGuid: string;

  @ApiProperty({ ...ZONELESS_UTC, description: 'UTC, without a zone.' })
  validationCodeValidUntilUtc: string;
}

export class LoginOtpValidateAnswerDto {
  @ApiProperty({ format: 'uuid' })
  userGuid: string;

  @ApiProperty({ description: "The team member's JWT, for the management API (`Authorization: Bearer`)." })
  token: string;

  @ApiProperty({ ...ZONELESS_UTC, description: 'UTC, without a zone.' })
  tokenExpiresAtUtc: string;
}
