import { ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { API_KEY_ENVIRONMENTS, type ApiKeyEnvironment } from '../../../api-keys/api-key-format.js';
import { TOKEN_ENDPOINT_AUTH_METHODS, type TokenEndpointAuthMethod } from '../oidc-client.js';
import { OidcClientFieldsDto } from './oidc-client-fields.dto.js';

export class CreateOidcClientDto extends OidcClientFieldsDto {
  @ApiPropertyOptional({
    enum: API_KEY_ENVIRONMENTS,
    default: 'test',
    description: 'test clients log in with test identities (and the simulator).',
  })
  @IsOptional()
  @IsIn(API_KEY_ENVIRONMENTS)
  environment?: ApiKeyEnvironment;

  @ApiPropertyOptional({
    enum: TOKEN_ENDPOINT_AUTH_METHODS,
    default: 'client_secret_basic',
    description: '`none`: a public client (PKCE required).',
  })
  @IsOptional()
  @IsIn(TOKEN_ENDPOINT_AUTH_METHODS)
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
}

/** PATCH: any field but the environment and the authentication method. */
export class UpdateOidcClientDto extends PartialType(OidcClientFieldsDto) {}
