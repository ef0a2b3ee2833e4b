import { ApiProperty } from '@nestjs/swagger';
import { SAML_ATTRIBUTE_NAMES } from '../saml-service-provider.js';

export class SamlServiceProviderDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['test', 'live'] }) environment: string;
  @ApiProperty() name: string;
  @ApiProperty() entityId: string;
  @ApiProperty({ type: [String] }) acsUrls: string[];
  @ApiProperty({ type: 'string', nullable: true }) singleLogoutUrl: string | null;
  @ApiProperty() signingCertificate: string;
  @ApiProperty({ type: 'string', nullable: true }) encryptionCertificate: string | null;
  @ApiProperty({ type: [String], nullable: true }) providers: string[] | null;
  @ApiProperty({ type: [String], enum: SAML_ATTRIBUTE_NAMES }) attributes: string[];
  @ApiProperty({ format: 'uri', example: 'https://eid.example.com/saml/metadata', description: 'The IdP metadata the SP imports.' })
  metadataUrl: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class SamlServiceProviderListDto {
  @ApiProperty({ type: [SamlServiceProviderDto] }) data: SamlServiceProviderDto[];
}
