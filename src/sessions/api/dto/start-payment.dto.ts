import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBase64,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { RISK_FLAGS, UserVisibleTransactionDto } from '../../../eid-providers/payment-transaction.dto.js';
import { NON_VISIBLE_DATA_MAX } from './sign-and-phone.validators.js';
import { StartSessionDto } from './start-session.dto.js';

/** POST /api/v1/payment/{provider}/start: the person approves a payment in the e-ID app (docs/api.md, "Payment"). */
// ageOver is an identification's (docs/age-verification.md): a payment names its payer.
export class StartPaymentDto extends OmitType(StartSessionDto, ['ageOver'] as const) {
  @ApiProperty({ type: UserVisibleTransactionDto })
  @IsObject()
  @ValidateNested()
  @Type(() => UserVisibleTransactionDto)
  userVisibleTransaction: UserVisibleTransactionDto;

  @ApiPropertyOptional({
    enum: RISK_FLAGS,
    isArray: true,
    description: 'What you know that makes this payment riskier; the provider weighs it in its risk assessment.',
  })
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(RISK_FLAGS.length)
  @IsIn(RISK_FLAGS, { each: true })
  riskFlags?: (typeof RISK_FLAGS)[number][];

  @ApiPropertyOptional({ maxLength: NON_VISIBLE_DATA_MAX, description: 'Base64 data that is signed with the payment but not shown.' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(NON_VISIBLE_DATA_MAX)
  @IsBase64(undefined, { message: 'userNonVisibleData must be base64' })
  userNonVisibleData?: string;
}
