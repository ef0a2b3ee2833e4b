import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ValidationErrorDto {
  @ApiProperty({ example: '/endUserIp', description: 'JSON Pointer (RFC 6901) to the refused member.' })
  pointer: string;

  @ApiProperty({ example: 'endUserIp must be an IPv4 or IPv6 address' })
  detail: string;
}

/** Every error answer (RFC 9457, docs/api.md "Errors"). */
export class ProblemDto {
  @ApiProperty({
    example: 'urn:eid-gateway:problem:session_not_found',
    description: '`urn:eid-gateway:problem:<code>`, or `about:blank` when there is no `code`.',
  })
  type: string;

  @ApiProperty({ example: 'Session not found' })
  title: string;

  @ApiProperty({ example: 404 })
  status: number;

  @ApiPropertyOptional({ example: 'No such session.' })
  detail?: string;

  @ApiPropertyOptional({ example: '/api/v1/auth/1f0e…/poll', description: 'The request path, without the query.' })
  instance?: string;

  @ApiPropertyOptional({
    example: 'session_not_found',
    description: "Machine-readable; absent only on the input guard's refusal and a malformed or over-long URL.",
  })
  code?: string;

  @ApiPropertyOptional({ type: [ValidationErrorDto], description: '`validation_failed`: one entry per refused field.' })
  errors?: ValidationErrorDto[];

  @ApiPropertyOptional({ type: [String], description: '`insufficient_scope`: the scopes the key lacks.' })
  scopes?: string[];

  @ApiPropertyOptional({ type: [String], description: "`feature_required`: the features the team's plan lacks." })
  features?: string[];

  @ApiPropertyOptional({ format: 'uuid', description: '`internal_error`: quote it to support; it is in the log.' })
  errorId?: string;
}
