import { ApiProperty } from '@nestjs/swagger';
import { PROVIDERS_DESCRIPTION } from './oidc-client-fields.dto.js';
import {
  BACKCHANNEL_DELIVERY_MODES,
  MAX_RISKS,
  PERSONAL_NUMBER_CLAIMS,
  SUBJECT_TYPES,
  TOKEN_ENDPOINT_AUTH_METHODS,
} from '../oidc-client.js';

export class OidcClientDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'eidc_test_4kQp2…', description: 'The client_id to configure in the relying party.' }) clientId: string;
  @ApiProperty({ enum: ['test', 'live'] }) environment: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: [String] }) redirectUris: string[];
  @ApiProperty({ type: [String] }) postLogoutRedirectUris: string[];
  @ApiProperty({ enum: TOKEN_ENDPOINT_AUTH_METHODS }) tokenEndpointAuthMethod: string;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) jwks: object | null;
  @ApiProperty({ type: 'string', nullable: true }) jwksUri: string | null;
  @ApiProperty({ type: [String], nullable: true, description: PROVIDERS_DESCRIPTION })
  providers: string[] | null;
  @ApiProperty({ enum: SUBJECT_TYPES }) subjectType: string;
  @ApiProperty() requirePushedAuthorizationRequests: boolean;
  @ApiProperty({ type: 'string', enum: PERSONAL_NUMBER_CLAIMS, nullable: true }) personalNumberClaim: string | null;
  @ApiProperty({ type: 'string', enum: MAX_RISKS, nullable: true }) maxRisk: string | null;
  @ApiProperty({ type: 'string', enum: BACKCHANNEL_DELIVERY_MODES, nullable: true }) backchannelTokenDeliveryMode: string | null;
  @ApiProperty({ type: 'string', nullable: true }) backchannelClientNotificationEndpoint: string | null;
  @ApiProperty({ format: 'uri', example: 'https://eid.example.com/oidc', description: 'The issuer to configure in the relying party.' })
  issuer: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class OidcClientWithSecretDto extends OidcClientDto {
  @ApiProperty({ type: 'string', nullable: true, description: 'The client secret (client_secret_*): in this answer only.' })
  clientSecret: string | null;
}

export class OidcClientListDto {
  @ApiProperty({ type: [OidcClientDto] }) data: OidcClientDto[];
}
