import { Body, Controller, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems, VALIDATION } from '../common/problem-details/api-problems.decorator.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConsoleLoginAudit } from '../audit/console-login-audit.js';
import { Public } from '../auth/access.decorators.js';
import { consoleConfig, type ConsoleConfig } from '../config/console.config.js';
import { LoginOtpValidateDto } from '../otp/dto/login-otp-validate.dto.js';
import { LoginOtpDto } from '../otp/dto/login-otp.dto.js';
import { LoginOtpAnswerDto } from '../otp/dto/otp-answers.dto.js';
import { OtpService, type OtpAudience } from '../otp/otp.service.js';
import { CONSOLE_CSRF_HEADER, clearedSessionCookie, consoleSessionToken, sessionCookie } from './console-cookie.js';
import { ConsoleLoginDelays } from './console-login-delays.service.js';
import { ConsoleLoginGuard } from './console-login.guard.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { ConsoleLoginAnswerDto } from './dto/console-login-answers.dto.js';
import { TokenRevocations } from '../tokens/token-revocations.js';
import { TokensService } from '../tokens/tokens.service.js';

// The console logs in members of any team; the team is the user's own (docs/console.md).
// Its wrong codes slow down the address that sends them instead of locking the member out (docs/console.md).
const CONSOLE_AUDIENCE: OtpAudience = { teamId: null, clientId: 'console', userLockout: false };

/**
 * The console's own login (docs/console.md): the OTP flow of docs/otp-and-tokens.md without an API
 * key, its token put in an HttpOnly cookie rather than in the answer.
 */
@ApiTags('console')
@ApiHeader({ name: CONSOLE_CSRF_HEADER, description: 'Must be 1 (CSRF check)', required: true })
@Public()
@UseGuards(ConsoleLoginGuard)
@Controller('console')
export class ConsoleLoginController {
  constructor(
    private readonly otp: OtpService,
    private readonly loginAudit: ConsoleLoginAudit,
    private readonly delays: ConsoleLoginDelays,
    private readonly tokens: TokensService,
    private readonly revocations: TokenRevocations,
    @Inject(consoleConfig.KEY) private readonly config: ConsoleConfig,
  ) {}

  @Post('login/code')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a login code to a team member (same answer for unknown contacts)' })
  @ApiOkResponse({ type: LoginOtpAnswerDto })
  @ApiProblems('csrf_check_failed', 'rate_limit_exceeded', VALIDATION, 'payload_too_large', 'unsupported_media_type', 'otp_delivery_failed')
  requestCode(@Body() body: LoginOtpDto, @Req() request: FastifyRequest) {
    return this.otp.requestCode(CONSOLE_AUDIENCE, body, request.ip);
  }

  @Post('login/validate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchange the code for the console session cookie' })
  @ApiOkResponse({
    type: ConsoleLoginAnswerDto,
    description: 'Sets the `__Host-eidgw-console` cookie (HttpOnly, Secure, SameSite=Strict).',
  })
  @ApiProblems(
    'csrf_check_failed',
    'rate_limit_exceeded',
    VALIDATION,
    'payload_too_large',
    'unsupported_media_type',
    'invalid_validation_code',
    'validation_code_expired',
  )
  async validateCode(@Body() body: LoginOtpValidateDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.delays.assertMayTry(body.userGuid, request.ip);
    const { userGuid, token, tokenExpiresAtUtc } = await this.otp.validateCode(CONSOLE_AUDIENCE, body).catch(async (error: unknown) => {
      if (error instanceof DomainException && error.code === 'invalid_validation_code')
        await this.delays.recordFailure(body.userGuid, request.ip);
      throw error;
    });
    await this.delays.clear(userGuid, request.ip);
    await this.loginAudit.loggedIn(userGuid, request.ip ?? null);
    reply.header('set-cookie', sessionCookie(token, Math.floor(this.config.tokenTtlMs / 1000)));
    // The token stays out of the body: no script on the page ever holds it.
    return { userGuid, tokenExpiresAtUtc };
  }

  @Post('logout')
  @HttpCode(204)
  @ApiOperation({ summary: 'End the console session: its token is revoked and the cookie cleared' })
  @ApiNoContentResponse({ description: 'The token is revoked on every replica and the cookie cleared.' })
  @ApiProblems('csrf_check_failed', 'rate_limit_exceeded')
  async logout(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const token = consoleSessionToken(request);
    // A cookie that no longer verifies (expired, another key set) has nothing left to revoke.
    const verified = token ? await this.tokens.verify(token).catch(() => null) : null;
    if (verified) await this.revocations.revoke(verified.tokenId, verified.expiresAt);
    reply.header('set-cookie', clearedSessionCookie());
  }
}
