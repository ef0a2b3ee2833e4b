import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A public signing key (RFC 7517); members by key type: `crv`, `x`, `y` for EC and OKP, `n`, `e` for RSA. */
export class JwkDto {
  @ApiProperty({ example: 'EC' })
  kty: string;

  @ApiProperty({ description: 'RFC 7638 thumbprint of the key.' })
  kid: string;

  @ApiProperty({ example: 'ES256' })
  alg: string;

  @ApiProperty({ enum: ['sig'] })
  use: string;

  @ApiPropertyOptional({ example: 'P-256' })
  crv?: string;

  @ApiPropertyOptional()
  x?: string;

  @ApiPropertyOptional()
  y?: string;

  @ApiPropertyOptional()
  n?: string;

  @ApiPropertyOptional()
  e?: string;
}

export class JwksDto {
  @ApiProperty({ type: [JwkDto] })
  keys: JwkDto[];
}
