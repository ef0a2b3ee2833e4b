import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EvidenceVerificationDto } from '../../eid-providers/evidence-answers.dto.js';

const NULLABLE_TIME = { type: 'string', format: 'date-time', nullable: true } as const;

class TimelineSessionDto {
  @ApiProperty({ format: 'uuid' })
  sessionId: string;

  @ApiProperty({ example: 'bankid' })
  provider: string;

  @ApiProperty({ enum: ['test', 'live'] })
  environment: string;

  @ApiProperty({ enum: ['auth', 'sign'] })
  operation: string;

  @ApiProperty({ enum: ['app', 'phone'] })
  channel: string;

  @ApiProperty({ enum: ['pending', 'complete', 'failed'] })
  status: string;

  @ApiProperty({ type: 'string', nullable: true })
  hintCode: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;

  @ApiProperty(NULLABLE_TIME)
  completedAt: string | null;

  @ApiProperty({ type: 'integer', description: 'Orders replaced after startFailed (autoRenew).' })
  renewals: number;
}

class TimelineEventDto {
  @ApiProperty({ format: 'date-time' })
  at: string;

  @ApiProperty({ enum: ['pending', 'complete', 'failed'] })
  status: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'userSign' })
  hintCode: string | null;
}

class TimelineAttemptDto {
  @ApiProperty({ type: 'integer' })
  number: number;

  @ApiProperty({ format: 'date-time' })
  attemptedAt: string;

  @ApiProperty({ enum: ['scheduled', 'manual'] })
  trigger: string;

  @ApiProperty({ enum: ['success', 'http_error', 'timeout', 'network_error', 'refused'] })
  outcome: string;

  @ApiProperty({ type: 'integer', nullable: true })
  statusCode: number | null;

  @ApiProperty({ type: 'integer' })
  latencyMs: number;

  @ApiProperty({ type: 'string', nullable: true })
  error: string | null;
}

class TimelineWebhookDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'msg_2Kq…' })
  messageId: string;

  @ApiProperty({ example: 'auth.session.completed' })
  eventType: string;

  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] })
  status: string;

  @ApiProperty({ example: 'https://rp.example.com/hooks/eid' })
  url: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty(NULLABLE_TIME)
  deliveredAt: string | null;

  @ApiProperty({ type: [TimelineAttemptDto] })
  attempts: TimelineAttemptDto[];
}

class TimelineEvidenceDto {
  @ApiProperty({
    enum: ['checked', 'none', 'purged'],
    description: 'none: the provider gave nothing to check (yet); purged: erased with the personal data.',
  })
  state: string;

  @ApiPropertyOptional({ type: EvidenceVerificationDto })
  verification?: EvidenceVerificationDto;
}

/** A session's timeline (docs/console.md), without personal data. */
export class SessionTimelineDto {
  @ApiProperty({ type: TimelineSessionDto })
  session: TimelineSessionDto;

  @ApiProperty({ type: [TimelineEventDto], description: 'The start, then every status or hint code change, oldest first.' })
  events: TimelineEventDto[];

  @ApiProperty({ type: [TimelineWebhookDto], description: 'The webhook messages of the session, with their attempts.' })
  webhooks: TimelineWebhookDto[];

  @ApiProperty({ type: TimelineEvidenceDto })
  evidence: TimelineEvidenceDto;

  @ApiProperty({ type: 'string', nullable: true, description: 'The OpenID client that started the session, if one did.' })
  oidcClientId: string | null;
}
