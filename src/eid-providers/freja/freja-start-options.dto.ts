import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/**
 * The start body's fields for Freja eID, which can address a known user (docs/freja.md). The request
 * pipe checks their shape; Freja's order (freja-order.ts) checks their values and how they combine.
 */
export class FrejaStartOptionsDto {
  @ApiPropertyOptional({
    example: 'INFERRED',
    description: 'How userInfo names the user (Freja eID: INFERRED, SSN, EMAIL, PHONE; docs/freja.md).',
  })
  @IsOptional()
  @IsString()
  @MaxLength(16)
  userInfoType?: string;

  @ApiPropertyOptional({
    maxLength: 256,
    description: 'The user, as userInfoType says (a personal number, an email address, a phone number).',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  userInfo?: string;

  @ApiPropertyOptional({
    example: 'EXTENDED',
    description: 'The lowest registration level the user must have (Freja eID: BASIC, EXTENDED, PLUS).',
  })
  @IsOptional()
  @IsString()
  @MaxLength(16)
  minRegistrationLevel?: string;
}

/** The body fields above, handed to Freja as its start options. */
export const FREJA_START_OPTION_FIELDS = ['userInfoType', 'userInfo', 'minRegistrationLevel'] as const;

/** Freja's options from StartOrderRequest.options; the pipe let only strings through. */
export function frejaStartOptionsOf(
  options: Readonly<Record<string, unknown>> | undefined,
): Partial<Record<(typeof FREJA_START_OPTION_FIELDS)[number], string>> {
  const picked: Partial<Record<(typeof FREJA_START_OPTION_FIELDS)[number], string>> = {};
  for (const field of FREJA_START_OPTION_FIELDS) {
    const value = options?.[field];
    if (typeof value === 'string') picked[field] = value;
  }
  return picked;
}
