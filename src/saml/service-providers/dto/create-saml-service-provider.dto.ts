import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { API_KEY_ENVIRONMENTS, type ApiKeyEnvironment } from '../../../api-keys/api-key-format.js';
import { SamlServiceProviderFieldsDto } from './saml-service-provider-fields.dto.js';

export class CreateSamlServiceProviderDto extends SamlServiceProviderFieldsDto {
  @ApiPropertyOptional({
    enum: API_KEY_ENVIRONMENTS,
    default: 'test',
    description: 'test SPs log in with test identities (and the simulator).',
  })
  @IsOptional()
  @IsIn(API_KEY_ENVIRONMENTS)
  environment?: ApiKeyEnvironment;

  @ApiProperty({ example: 'https://sp.example.com/saml', description: "The SP's entityID: unique in the deployment." })
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  entityId: string;
}

/** PATCH: any field but the environment and the entityID. */
export class UpdateSamlServiceProviderDto extends PartialType(SamlServiceProviderFieldsDto) {}
