import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique, IsArray, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { SAML_ATTRIBUTE_NAMES, type SamlAttributeName } from '../saml-service-provider.js';

const URL_MAX_LENGTH = 512;
// A certificate in PEM is a few kilobytes; a chain does not belong here.
const PEM_MAX_LENGTH = 16_384;

/** A service provider's fields but its environment and entityID, which never change. */
export class SamlServiceProviderFieldsDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'E-services portal' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;

  @ApiProperty({
    type: [String],
    example: ['https://sp.example.com/saml/acs'],
    description:
      'AssertionConsumerService URLs (HTTP-POST), matched exactly; the first is used when a request names none. https; http only for a loopback address outside production.',
  })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(10)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(URL_MAX_LENGTH, { each: true })
  acsUrls: string[];

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description: "The SP's SingleLogoutService (HTTP-POST), where a LogoutResponse goes.",
  })
  @IsOptional()
  @IsString()
  @MaxLength(URL_MAX_LENGTH)
  singleLogoutUrl?: string | null;

  @ApiProperty({ description: "The SP's signing certificate (PEM): its AuthnRequests must be signed with its key." })
  @IsString()
  @MaxLength(PEM_MAX_LENGTH)
  signingCertificate: string;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description: 'An encryption certificate (PEM): assertions are then encrypted to it.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(PEM_MAX_LENGTH)
  encryptionCertificate?: string | null;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    description: 'e-ID provider names the SP may log in with, the preferred first; null or absent: every provider the SAML front offers.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  providers?: string[] | null;

  @ApiPropertyOptional({ type: [String], enum: SAML_ATTRIBUTE_NAMES, description: 'The attributes released; absent: all of them.' })
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(SAML_ATTRIBUTE_NAMES, { each: true })
  attributes?: SamlAttributeName[];
}
