import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { E164 } from '../../otp/dto/login-otp.dto.js';

/** A new member: an e-mail address, a mobile number, or both (docs/console.md, "Members"). */
export class AddMemberDto {
  @ApiPropertyOptional({ example: 'ada@example.com', description: 'At least one of email and phone is required.' })
  // Required when there is no phone.
  @ValidateIf((member: AddMemberDto) => member.email !== undefined || member.phone === undefined)
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an e-mail address (or give phone)' })
  email?: string;

  @ApiPropertyOptional({ example: '+46701234567', description: 'E.164.' })
  @ValidateIf((member: AddMemberDto) => member.phone !== undefined)
  @IsString()
  @Matches(E164, { message: 'phone must be an E.164 number such as +46701234567' })
  phone?: string;
}
