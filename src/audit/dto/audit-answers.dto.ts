import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AUDIT_ACTIONS } from '../audit-actions.js';

class AuditEventRowDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'date-time' })
  occurredAt: string;

  @ApiPropertyOptional({ enum: ['test', 'live'], description: 'Absent for team-wide actions (members, logins).' })
  environment?: string;

  @ApiProperty({ enum: ['member', 'operator'], description: 'operator: the command line.' })
  actorType: string;

  @ApiPropertyOptional({ format: 'uuid', description: "The member's user id." })
  actorId?: string;

  @ApiPropertyOptional({
    example: 'ada@example.com',
    description: "The member's e-mail or phone when it happened; operator for the command line.",
  })
  actor?: string;

  @ApiProperty({ enum: AUDIT_ACTIONS })
  action: string;

  @ApiProperty({ example: 'api_key' })
  targetType: string;

  @ApiPropertyOptional({ example: '0b0e6a52-3c1f-4f57-9a34-1a4f1f0e1c11' })
  targetId?: string;

  @ApiPropertyOptional({ example: '192.0.2.10', description: 'The client address of the request (absent for the command line).' })
  clientAddress?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'A few non-secret facts of the change.' })
  details?: Record<string, unknown>;
}

export class AuditEventListingDto {
  @ApiProperty({ enum: [true] })
  success: boolean;

  @ApiProperty({ type: [AuditEventRowDto] })
  rows: AuditEventRowDto[];

  @ApiProperty({ description: '-1 while more rows exist; otherwise the total row count.', example: -1 })
  lastrow: number;
}
