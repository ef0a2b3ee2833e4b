import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';

export class ReturnDto {
  @ApiProperty({ example: 'q2Vn8k0f3X1cR7yJtB9wAg', description: 'The eidgw_nonce parameter your returnUrl received.' })
  @IsString()
  @MaxLength(64)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'nonce must be base64url text' })
  nonce: string;
}
