import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, MaxLength, registerDecorator, type ValidationArguments } from 'class-validator';

export const E164 = /^\+[1-9]\d{6,14}$/;

/** E.164 when given; required when there is no e-mail (docs/otp-and-tokens.md: at least one of the two). One message either way. */
function IsE164UnlessEmail() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isE164UnlessEmail',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          value === undefined ? (args.object as LoginOtpDto).email != null : typeof value === 'string' && E164.test(value),
        defaultMessage: (args?: ValidationArguments) =>
          args?.value === undefined
            ? 'e164MobilePhoneNumber or email is required'
            : 'e164MobilePhoneNumber must be an E.164 number such as +46701234567',
      },
    });
}

export class LoginOtpDto {
  @ApiPropertyOptional({ example: '+46701234567', description: 'E.164. At least one of e164MobilePhoneNumber and email is required.' })
  @IsE164UnlessEmail()
  e164MobilePhoneNumber?: string;

  @ApiPropertyOptional({ example: 'ada@example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email?: string;
}
