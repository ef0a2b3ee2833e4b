import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { AGE_THRESHOLDS, type AgeThreshold } from '../../sessions/session-age.js';

/** The most a card's QR holds as we take it; the whole body is held to ID_CARD_BODY_LIMIT_BYTES. */
export const ID_CARD_QR_MAX = 1800;

/** POST /api/v1/idcard/{provider}/verify (docs/idcard.md). */
export class VerifyIdCardDto {
  @ApiProperty({
    description: "The digital ID card's QR as scanned, whole: it begins `BANKIDF.` and is good for one verification.",
    example: 'BANKIDF.9b3e41c2-7d0a-4f6c-8e55-0c3b2f1a9d77.1f0e2d3c4b5a69788796a5b4c3d2e1f0',
    maxLength: ID_CARD_QR_MAX,
  })
  @IsString()
  @MaxLength(ID_CARD_QR_MAX)
  // Anchored, one literal prefix then a single class: linear on any input.
  @Matches(/^BANKIDF\.[\x21-\x7e]+$/, { message: 'qrCode must be the whole scanned code, beginning BANKIDF.' })
  qrCode: string;

  @ApiPropertyOptional({
    enum: AGE_THRESHOLDS,
    description:
      'Age only (docs/age-verification.md): the session answers whether the holder is this old or older ' +
      '(ageVerification, source idcard), never who they are.',
  })
  @IsOptional()
  @IsIn(AGE_THRESHOLDS, { message: `ageOver must be one of ${AGE_THRESHOLDS.join(', ')}` })
  ageOver?: AgeThreshold;
}
