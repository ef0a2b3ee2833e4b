import { applyDecorators, Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Scopes } from '../../auth/access.decorators.js';
import { CurrentPrincipal, type ApiKeyPrincipal } from '../../auth/principal.js';
import { API_KEY_PROBLEMS, ApiProblems, VALIDATION } from '../../common/problem-details/api-problems.decorator.js';
import { StartSessionAnswerDto } from './dto/session-answers.dto.js';
import { StartPhoneAuthDto, StartPhoneSignDto } from './dto/start-phone.dto.js';
import { StartSignDto } from './dto/start-sign.dto.js';
import { SessionsService } from './sessions.service.js';

/** The answers every start route shares (docs/api.md, "Signing and the phone channel"). */
export const StartAnswers = () =>
  applyDecorators(
    ApiOkResponse({ type: StartSessionAnswerDto, description: 'Phone sessions have no QR fields, autostart token or kioskUrl.' }),
    ApiProblems(
      ...API_KEY_PROBLEMS,
      VALIDATION,
      'payload_too_large',
      'unsupported_media_type',
      'unknown_provider',
      'operation_not_supported',
      'provider_rejected_request',
      'order_in_progress',
      'provider_unavailable',
    ),
  );

/**
 * The start routes of signing and of the phone channel (docs/api.md, "Signing and the phone
 * channel"). Their sessions share poll, QR and cancel under /api/v1/auth/{sessionId}.
 */
@ApiTags('sessions')
@ApiSecurity('apiKey')
@ApiSecurity('apiKeyQuery')
@Controller('api/v1')
export class SignAndPhoneController {
  constructor(private readonly sessions: SessionsService) {}

  @Post('sign/:provider/start')
  @HttpCode(200)
  @Scopes('sessions:write')
  @StartAnswers()
  @ApiOperation({ summary: 'Start a signing session: the end user signs a text in the e-ID app (QR or autostart)' })
  sign(@CurrentPrincipal() principal: ApiKeyPrincipal, @Param('provider') provider: string, @Body() body: StartSignDto) {
    return this.sessions.start(principal, provider, body, { operation: 'sign', channel: 'app' });
  }

  @Post('phone/auth/:provider/start')
  @HttpCode(200)
  @Scopes('sessions:write')
  @StartAnswers()
  @ApiOperation({ summary: 'Identify the person on a call with you: their e-ID app asks them to confirm the call (no QR)' })
  phoneAuth(@CurrentPrincipal() principal: ApiKeyPrincipal, @Param('provider') provider: string, @Body() body: StartPhoneAuthDto) {
    return this.sessions.start(principal, provider, body, { operation: 'auth', channel: 'phone' });
  }

  @Post('phone/sign/:provider/start')
  @HttpCode(200)
  @Scopes('sessions:write')
  @StartAnswers()
  @ApiOperation({ summary: 'Have the person on a call with you sign a text in their e-ID app (no QR)' })
  phoneSign(@CurrentPrincipal() principal: ApiKeyPrincipal, @Param('provider') provider: string, @Body() body: StartPhoneSignDto) {
    return this.sessions.start(principal, provider, body, { operation: 'sign', channel: 'phone' });
  }
}
