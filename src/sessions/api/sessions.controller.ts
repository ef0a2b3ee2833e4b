import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiProduces, ApiSecurity, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Scopes } from '../../auth/access.decorators.js';
import { CurrentPrincipal, type ApiKeyPrincipal } from '../../auth/principal.js';
import { Clock } from '../../common/clock/clock.js';
import { API_KEY_PROBLEMS, ApiProblems, VALIDATION } from '../../common/problem-details/api-problems.decorator.js';
import { qrFrame, qrTimeAt } from '../../qr/qr-frame.js';
import { negotiateQrFormat } from '../../qr/qr-format.js';
import { QrRendererService } from '../../qr/qr-renderer.service.js';
import { QrQueryDto } from './dto/qr-query.dto.js';
import { RawEvidenceDto } from '../../eid-providers/evidence-answers.dto.js';
import { QrFrameDto, SessionStateDto, StartSessionAnswerDto } from './dto/session-answers.dto.js';
import { ReturnDto } from './dto/return.dto.js';
import { StartSessionDto } from './dto/start-session.dto.js';
import { SessionReader } from './session-reader.js';
import { SessionReturnsService } from './session-returns.service.js';
import { SessionsService } from './sessions.service.js';

@ApiTags('sessions')
@ApiSecurity('apiKey')
@ApiSecurity('apiKeyQuery')
@Controller('api/v1/auth')
export class SessionsController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly reader: SessionReader,
    private readonly returns: SessionReturnsService,
    private readonly renderer: QrRendererService,
    private readonly clock: Clock,
  ) {}

  @Post(':provider/start')
  @HttpCode(200)
  @Scopes('sessions:write')
  @ApiOperation({ summary: 'Start an e-ID session for an end user' })
  @ApiOkResponse({ type: StartSessionAnswerDto })
  @ApiProblems(
    ...API_KEY_PROBLEMS,
    VALIDATION,
    'payload_too_large',
    'unsupported_media_type',
    'unknown_provider',
    'provider_rejected_request',
    'order_in_progress',
    'provider_unavailable',
  )
  start(@CurrentPrincipal() principal: ApiKeyPrincipal, @Param('provider') provider: string, @Body() body: StartSessionDto) {
    return this.sessions.start(principal, provider, body);
  }

  @Post(':sessionId/poll')
  @HttpCode(200)
  @Scopes('sessions:read')
  @ApiOperation({ summary: 'Current status (collected from the provider at most every 2 s)' })
  @ApiOkResponse({ type: SessionStateDto })
  @ApiProblems(...API_KEY_PROBLEMS, 'session_not_found')
  poll(@CurrentPrincipal() principal: ApiKeyPrincipal, @Param('sessionId') sessionId: string) {
    return this.sessions.poll(principal, sessionId);
  }

  @Post(':sessionId/cancel')
  @HttpCode(200)
  @Scopes('sessions:write')
  @ApiOperation({ summary: 'Cancel a pending session' })
  @ApiOkResponse({ type: SessionStateDto, description: 'The poll answer: `failed`, hintCode `cancelled`.' })
  @ApiProblems(...API_KEY_PROBLEMS, 'session_not_found', 'session_not_pending', 'provider_unavailable')
  cancel(@CurrentPrincipal() principal: ApiKeyPrincipal, @Param('sessionId') sessionId: string) {
    return this.sessions.cancel(principal, sessionId);
  }

  @Get(':sessionId/evidence')
  @Scopes('sessions:read')
  @ApiOperation({ summary: "The provider's raw evidence of a complete session: signature and OCSP response (410 once purged)" })
  @ApiOkResponse({ type: RawEvidenceDto })
  @ApiProblems(...API_KEY_PROBLEMS, 'session_not_found', 'evidence_not_found', 'evidence_purged')
  evidence(@CurrentPrincipal() principal: ApiKeyPrincipal, @Param('sessionId') sessionId: string) {
    return this.reader.evidence(principal, sessionId);
  }

  @Post(':sessionId/return')
  @HttpCode(200)
  @Scopes('sessions:read')
  @ApiOperation({ summary: "Confirm the person's return to your returnUrl with its eidgw_nonce (docs/same-device.md)" })
  @ApiOkResponse({ type: SessionStateDto, description: 'The poll answer; still `pending` if the provider has not completed yet.' })
  @ApiProblems(...API_KEY_PROBLEMS, VALIDATION, 'session_not_found', 'return_nonce_mismatch')
  confirmReturn(@CurrentPrincipal() principal: ApiKeyPrincipal, @Param('sessionId') sessionId: string, @Body() body: ReturnDto) {
    return this.returns.confirmReturn(principal, sessionId, body.nonce);
  }

  @Get(':sessionId/qr')
  @Scopes('sessions:read')
  @ApiOperation({ summary: 'The current frame of the animated QR: JSON, PNG or SVG' })
  @ApiExtraModels(QrFrameDto)
  @ApiProduces('application/json', 'image/png', 'image/svg+xml')
  @ApiOkResponse({
    description: 'By `?format=` or `Accept`; `Cache-Control: no-store` (a frame is valid for one second).',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(QrFrameDto) } },
      'image/png': { schema: { type: 'string', format: 'binary' } },
      'image/svg+xml': { schema: { type: 'string' } },
    },
  })
  @ApiProblems(...API_KEY_PROBLEMS, VALIDATION, 'session_not_found', 'session_not_pending', 'qr_not_available')
  async qr(
    @CurrentPrincipal() principal: ApiKeyPrincipal,
    @Param('sessionId') sessionId: string,
    @Query() query: QrQueryDto,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { session, qr } = await this.reader.pendingForQr(principal, sessionId);
    const now = this.clock.now();
    const frame = qrFrame(qr, qrTimeAt(session.orderTime, now));
    const format = negotiateQrFormat(query.format, accept);
    // A frame is valid for one second: never let a cache keep it.
    void reply.header('cache-control', 'no-store').header('vary', 'accept');
    if (format === 'json') {
      void reply.send({ sessionId: session.id, ...frame, status: session.status });
      return;
    }
    const image = this.renderer.render(session.id, frame.qrData, format, query.size, now.getTime());
    void reply.type(format === 'png' ? 'image/png' : 'image/svg+xml').send(image);
  }
}
