import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UserVisibleTransactionDto } from '../../payment-transaction.dto.js';

/** What the e-ID app shows once it has the order (docs/api.md, "Simulator"). */
class ShownOrderDto {
  @ApiProperty({ enum: ['auth', 'sign', 'payment'] })
  operation: string;

  @ApiPropertyOptional({ description: 'The text to sign (or of an auth or payment order that has one).' })
  userVisibleData?: string;

  @ApiPropertyOptional({ type: UserVisibleTransactionDto, description: 'payment: the transaction the person approves.' })
  userVisibleTransaction?: UserVisibleTransactionDto;
}

export class ScanAnswerDto extends ShownOrderDto {
  @ApiProperty({ enum: [true] })
  scanned: boolean;

  @ApiProperty({ enum: ['approve', 'cancel'] })
  action: string;
}

export class PhoneAnswerAnswerDto extends ShownOrderDto {
  @ApiProperty({ enum: [true] })
  answered: boolean;

  @ApiProperty({ enum: ['approve', 'decline'] })
  action: string;
}
