import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Scopes } from '../auth/access.decorators.js';
import { CurrentPrincipal, type ApiKeyPrincipal } from '../auth/principal.js';
import { API_KEY_PROBLEMS, ApiProblems, VALIDATION } from '../common/problem-details/api-problems.decorator.js';
import { SessionStateDto } from '../sessions/api/dto/session-answers.dto.js';
import { IdCardSessions } from '../sessions/idcard-sessions.service.js';
import { VerifyIdCardDto } from './dto/verify-idcard.dto.js';

/** Digital ID cards checked at a counter (docs/idcard.md): the answer is a finished session. */
@ApiTags('sessions')
@ApiSecurity('apiKey')
@ApiSecurity('apiKeyQuery')
@Controller('api/v1/idcard')
export class IdCardController {
  constructor(private readonly idCards: IdCardSessions) {}

  @Post(':provider/verify')
  @HttpCode(200)
  @Scopes('sessions:write')
  @ApiOperation({ summary: "Verify a digital ID card's scanned QR: a finished session (operation idcard, channel counter)" })
  @ApiOkResponse({ type: SessionStateDto })
  @ApiConflictResponse({ description: '`qr_expired`: the code has expired or was used already; the holder shows the card again.' })
  @ApiProblems(...API_KEY_PROBLEMS, VALIDATION, 'payload_too_large', 'unsupported_media_type', 'unknown_provider', 'provider_unavailable')
  async verify(@CurrentPrincipal() principal: ApiKeyPrincipal, @Param('provider') provider: string, @Body() body: VerifyIdCardDto) {
    const verifier = { teamId: principal.team.id, environment: principal.apiKey.environment, apiKeyId: principal.apiKey.id };
    return (await this.idCards.verify(verifier, provider, body.qrCode, body.ageOver)).view;
  }
}
