import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Scopes } from '../common/access/access.decorators.js';
import { CurrentPrincipal, type ApiKeyPrincipal } from '../common/access/principal.js';
import { LoginOtpValidateDto } from './dto/login-otp-validate.dto.js';
import { LoginOtpDto } from './dto/login-otp.dto.js';
import { OtpService, type OtpAudience } from './otp.service.js';

const audienceOf = (principal: ApiKeyPrincipal): OtpAudience => ({ teamId: principal.team.id, clientId: principal.apiKey.id });

/** Open only to approved applications: API keys with scope `otp`, for members of the key's own team. */
@ApiTags('otp')
@ApiSecurity('apiKey')
@Controller('ask_for_approval')
export class OtpController {
  constructor(private readonly otp: OtpService) {}

  @Post('login-otp')
  @HttpCode(200)
  @Scopes('otp')
  @ApiOperation({ summary: 'Send a one-time code to a team member by e-mail or SMS (same answer for unknown contacts)' })
  requestCode(@CurrentPrincipal() principal: ApiKeyPrincipal, @Body() body: LoginOtpDto) {
    return this.otp.requestCode(audienceOf(principal), body);
  }

  @Post('login-otp-validate')
  @HttpCode(200)
  @Scopes('otp')
  @ApiOperation({ summary: "Exchange the code for a team member's JWT" })
  validateCode(@CurrentPrincipal() principal: ApiKeyPrincipal, @Body() body: LoginOtpValidateDto) {
    return this.otp.validateCode(audienceOf(principal), body);
  }
}
