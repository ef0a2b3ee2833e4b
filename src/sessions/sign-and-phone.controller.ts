import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Scopes } from '../common/access/access.decorators.js';
import { CurrentPrincipal, type ApiKeyPrincipal } from '../common/access/principal.js';
import { StartPhoneAuthDto, StartPhoneSignDto } from './dto/start-phone.dto.js';
import { StartSignDto } from './dto/start-sign.dto.js';
import { SessionsService } from './sessions.service.js';

/**
 * The start routes of signing and of the phone channel (docs/api.md, "Signing and the phone
 * channel"). Their sessions share poll, QR and cancel under /api/v1/auth/{sessionId}.
 */
@ApiTags('sessions')
@ApiSecurity('apiKey')
@Controller('api/v1')
export class SignAndPhoneController {
  constructor(private readonly sessions: SessionsService) {}

  @Post('sign/:provider/start')
  @HttpCode(200)
  @Scopes('sessions:write')
  @ApiOperation({ summary: 'Start a signing session: the end user signs a text in the e-ID app (QR or autostart)' })
  sign(@CurrentPrincipal() principal: ApiKeyPrincipal, @Param('provider') provider: string, @Body() body: StartSignDto) {
    return this.sessions.start(principal, provider, body, { operation: 'sign', channel: 'app' });
  }

  @Post('phone/auth/:provider/start')
  @HttpCode(200)
  @Scopes('sessions:write')
  @ApiOperation({ summary: 'Identify the person on a call with you: their e-ID app asks them to confirm the call (no QR)' })
  phoneAuth(@CurrentPrincipal() principal: ApiKeyPrincipal, @Param('provider') provider: string, @Body() body: StartPhoneAuthDto) {
    return this.sessions.start(principal, provider, body, { operation: 'auth', channel: 'phone' });
  }

  @Post('phone/sign/:provider/start')
  @HttpCode(200)
  @Scopes('sessions:write')
  @ApiOperation({ summary: 'Have the person on a call with you sign a text in their e-ID app (no QR)' })
  phoneSign(@CurrentPrincipal() principal: ApiKeyPrincipal, @Param('provider') provider: string, @Body() body: StartPhoneSignDto) {
    return this.sessions.start(principal, provider, body, { operation: 'sign', channel: 'phone' });
  }
}
