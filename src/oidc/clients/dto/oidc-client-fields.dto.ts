import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import type { JSONWebKeySet } from 'jose';
import {
  BACKCHANNEL_DELIVERY_MODES,
  MAX_RISKS,
  PERSONAL_NUMBER_CLAIMS,
  SUBJECT_TYPES,
  type BackchannelDeliveryMode,
  type MaxRisk,
  type PersonalNumberClaim,
  type SubjectType,
} from '../oidc-client.js';

export const URI_MAX_LENGTH = 512;
export const MAX_URIS = 10;
/** What the description of `providers` says: the names are the registry's, checked by the service. */
export const PROVIDERS_DESCRIPTION =
  'e-ID provider names as the session routes name them (`{provider}`), each one that the OpenID front offers; null or absent: every provider the environment offers.';

/** A client's fields but its environment and authentication method, which never change. */
export class OidcClientFieldsDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Customer portal' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;

  @ApiProperty({
    type: [String],
    example: ['https://rp.example.com/callback'],
    description: 'Exact-match redirect URIs: https; http only for localhost or a loopback address outside production.',
  })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_URIS)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(URI_MAX_LENGTH, { each: true })
  redirectUris: string[];

  @ApiPropertyOptional({ type: [String], description: 'Where RP-initiated logout may return to (same rules as redirectUris).' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_URIS)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(URI_MAX_LENGTH, { each: true })
  postLogoutRedirectUris?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The public keys of private_key_jwt, as a JWK Set.' })
  @IsOptional()
  @IsObject()
  jwks?: JSONWebKeySet;

  @ApiPropertyOptional({ format: 'uri', description: 'Where the public keys of private_key_jwt are published (https).' })
  @IsOptional()
  @IsString()
  @MaxLength(URI_MAX_LENGTH)
  jwksUri?: string;

  @ApiPropertyOptional({ type: [String], maxItems: 50, description: PROVIDERS_DESCRIPTION })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(50)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(40, { each: true })
  providers?: string[];

  @ApiPropertyOptional({ enum: SUBJECT_TYPES, default: 'pairwise' })
  @IsOptional()
  @IsIn(SUBJECT_TYPES)
  subjectType?: SubjectType;

  @ApiPropertyOptional({ default: false, description: 'Refuse authorization requests not pushed with PAR first.' })
  @IsOptional()
  @IsBoolean()
  requirePushedAuthorizationRequests?: boolean;

  @ApiPropertyOptional({
    enum: PERSONAL_NUMBER_CLAIMS,
    nullable: true,
    description: 'A plain claim name that carries the personal number too.',
  })
  @IsOptional()
  @IsIn([...PERSONAL_NUMBER_CLAIMS, null])
  personalNumberClaim?: PersonalNumberClaim | null;

  @ApiPropertyOptional({ enum: MAX_RISKS, nullable: true, description: 'Refuse BankID logins whose risk is above this (docs/oidc.md).' })
  @IsOptional()
  @IsIn([...MAX_RISKS, null])
  maxRisk?: MaxRisk | null;

  @ApiPropertyOptional({ enum: BACKCHANNEL_DELIVERY_MODES, nullable: true, description: 'CIBA delivery mode (docs/oidc.md).' })
  @IsOptional()
  @IsIn([...BACKCHANNEL_DELIVERY_MODES, null])
  backchannelTokenDeliveryMode?: BackchannelDeliveryMode | null;

  @ApiPropertyOptional({ format: 'uri', nullable: true, description: 'CIBA ping mode: where the notification goes (https).' })
  @IsOptional()
  @IsString()
  @MaxLength(URI_MAX_LENGTH)
  backchannelClientNotificationEndpoint?: string | null;
}
