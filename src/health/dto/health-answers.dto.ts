import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class LiveDto {
  @ApiProperty({ enum: ['ok'] })
  status: string;
}

export class CertificateStatusDto {
  @ApiProperty({ enum: ['valid', 'expiring', 'expired'] })
  state: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;

  @ApiProperty({ type: 'integer' })
  daysLeft: number;
}

export class ReadyChecksDto {
  @ApiProperty({ enum: ['up'] })
  database: string;

  @ApiProperty({ enum: ['applied'] })
  migrations: string;

  @ApiPropertyOptional({
    description: 'By environment (`test`, `live`): the BankID RP certificates, when BankID is configured.',
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/CertificateStatusDto' },
  })
  bankidCertificates?: Record<string, CertificateStatusDto>;
}

export class ReadyDto {
  @ApiProperty({ enum: ['ok', 'warn'], description: '`warn`: ready, but something needs the operator soon (see `warnings`).' })
  status: string;

  @ApiProperty({ type: ReadyChecksDto })
  checks: ReadyChecksDto;

  @ApiPropertyOptional({ type: [String] })
  warnings?: string[];
}
