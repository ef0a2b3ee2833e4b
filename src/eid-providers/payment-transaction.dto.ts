import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  registerDecorator,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

export const TRANSACTION_TYPES = ['card', 'npa'] as const;
/** The risk flags an RP may raise on a payment, as the e-ID protocol names them (docs/api.md, "Payment"). */
export const RISK_FLAGS = [
  'newCard',
  'newCustomer',
  'newRecipient',
  'highRiskRecipient',
  'largeAmount',
  'foreignCurrency',
  'cryptoCurrencyPurchase',
  'moneyTransfer',
  'overseasTransaction',
  'recurringPayment',
  'suspiciousPaymentPattern',
  'other',
] as const;
// Bounded digits before the comma, exactly two after: linear to match, whatever the input.
const AMOUNT = /^\d{1,15},\d{2}$/;
const TEXT_MAX = 255;
// ISO 4217 as the runtime's ICU knows it: the active codes, kept up to date with Node.
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

export class RecipientDto {
  @ApiProperty({ example: 'Example Shop AB', maxLength: TEXT_MAX, description: 'Who is paid, as the app shows it.' })
  @IsString()
  @MinLength(1)
  @MaxLength(TEXT_MAX)
  name: string;
}

export class MoneyDto {
  @ApiProperty({ example: '1000,00', pattern: AMOUNT.source, description: 'A comma and exactly two decimals.' })
  @IsString()
  @Matches(AMOUNT, { message: 'amount must be digits, a comma and two decimals (1000,00)' })
  amount: string;

  @ApiProperty({ example: 'SEK', description: 'An ISO 4217 currency code.' })
  @IsString()
  @IsIn([...CURRENCIES], { message: 'currency must be an ISO 4217 currency code' })
  currency: string;
}

/** money belongs to card payments only: required for card, refused for npa (docs/api.md, "Payment"). */
function MoneyMatchesType() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'moneyMatchesType',
      target: target.constructor,
      propertyName,
      options: { message: 'money is required for transactionType card and not allowed for npa' },
      validator: {
        validate: (value: unknown, args) => {
          const type = (args?.object as { transactionType?: unknown }).transactionType;
          return type === 'card' ? value !== undefined : type === 'npa' ? value === undefined : true;
        },
      },
    });
}

/** What the e-ID app shows the person to approve (docs/api.md, "Payment"). */
export class UserVisibleTransactionDto {
  @ApiProperty({
    enum: TRANSACTION_TYPES,
    description: '`card`: a card payment (with money); `npa`: a non-payment authorisation (no money).',
  })
  @IsIn(TRANSACTION_TYPES)
  transactionType: (typeof TRANSACTION_TYPES)[number];

  @ApiProperty({ type: RecipientDto })
  @IsObject()
  @ValidateNested()
  @Type(() => RecipientDto)
  recipient: RecipientDto;

  @ApiPropertyOptional({ type: MoneyDto, description: 'Required for card, not allowed for npa.' })
  // Checked whenever it matters: present, or missing from a card payment (IsOptional would skip that case).
  @ValidateIf((transaction: UserVisibleTransactionDto) => transaction.transactionType === 'card' || transaction.money !== undefined)
  @MoneyMatchesType()
  @IsObject()
  @ValidateNested()
  @Type(() => MoneyDto)
  money?: MoneyDto;

  @ApiPropertyOptional({ maxLength: TEXT_MAX, description: 'A warning the app shows above the transaction.' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(TEXT_MAX)
  riskWarning?: string;
}
