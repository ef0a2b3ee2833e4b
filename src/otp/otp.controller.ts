import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import { Scopes } from '../auth/access.decorators.js';
import { CurrentPrincipal, type ApiKeyPrincipal } from '../auth/principal.js';
import { LoginOtpValidateDto } from './dto/login-otp-validate.dto.js';
import { LoginOtpDto } from './dto/login-otp.dto.js';
import { OtpService, type OtpAudience } from './otp.service.js';

const audienceOf = (principal: ApiKeyPrincipal): OtpAudience => ({ teamId: principal.team.id, clientId: principal.apiKey.id });
import { API_KEY_PROBLEMS, ApiProblems, VALIDATION } from '../common/problem-details/api-problems.decorator.js';
import { LoginOtpAnswerDto, LoginOtpValidateAnswerDto } from './dto/otp-answers.dto.js';

/** Open only to approved applications: API keys with scope `otp`, for members of the key's own team. */
@ApiTags('otp')
@ApiSecurity('apiKey')
@ApiSecurity('apiKeyQuery')
@Controller('ask_for_approval')
export class OtpController {
  constructor(private readonly otp: OtpService) {}

  @Post('login-otp')
  @HttpCode(200)
  @Scopes('otp')
  @ApiOperation({ summary: 'Send a one-time code to a team member by e-mail or SMS (same answer for unknown contacts)' })
  @ApiOkResponse({ type: LoginOtpAnswerDto })
  @ApiProblems(...API_KEY_PROBLEMS, VALIDATION, 'payload_too_large', 'unsupported_media_type', 'otp_delivery_failed')
  requestCode(@CurrentPrincipal() principal: ApiKeyPrincipal, @Body() body: LoginOtpDto) {
    return this.otp.requestCode(audienceOf(principal), body);
  }

  @Post('login-otp-validate')
  @HttpCode(200)
  @Scopes('otp')
  @ApiOperation({ summary: "Exchange the code for a team member's JWT" })
  @ApiOkResponse({ type: LoginOtpValidateAnswerDto })
  @ApiProblems(
    ...API_KEY_PROBLEMS,
    VALIDATION,
    'payload_too_large',
    'unsupported_media_type',
    'invalid_validation_code',
    'validation_code_expired',
  )
  validateCode(@CurrentPrincipal() principal: ApiKeyPrincipal, @Body() body: LoginOtpValidateDto) {
    return this.otp.validateCode(audienceOf(principal), body);
  }
}
