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

export class ReadyDto {
  @ApiProperty({ enum: ['ok', 'warn'], description: '`warn`: ready, but something needs the operator soon (see `warnings`).' })
  status: string;

  @ApiProperty({
    type: 'object',
    description:
      'The database and migrations; `redis` when REDIS_URL is set (`degraded`: Redis is away and rate limits are counted per process, still ready); and for each provider with RP certificates a member `<provider>Certificates` (docs/providers.md): its certificates by environment (`test`, `live`), when it is configured (docs/operations.md).',
    properties: {
      database: { type: 'string', enum: ['up'] },
      migrations: { type: 'string', enum: ['applied'] },
      redis: { type: 'string', enum: ['up', 'degraded'] },
    },
    required: ['database', 'migrations'],
    additionalProperties: { type: 'object', additionalProperties: { $ref: '#/components/schemas/CertificateStatusDto' } },
  })
  checks: { database: string; migrations: string } & Record<string, unknown>;

  @ApiPropertyOptional({ type: [String] })
  warnings?: string[];
}
