import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Scopes } from '../../auth/access.decorators.js';
import { CurrentPrincipal, type ApiKeyPrincipal } from '../../auth/principal.js';
import { StartPaymentDto } from './dto/start-payment.dto.js';
import { SessionsService } from './sessions.service.js';
import { StartAnswers } from './sign-and-phone.controller.js';

/**
 * The payment start route (docs/api.md, "Payment"): the person approves a card payment or a
 * transfer in the e-ID app. Its sessions share poll, QR and cancel under /api/v1/auth/{sessionId}.
 */
@ApiTags('sessions')
@ApiSecurity('apiKey')
@ApiSecurity('apiKeyQuery')
@Controller('api/v1')
export class PaymentController {
  constructor(private readonly sessions: SessionsService) {}

  @Post('payment/:provider/start')
  @HttpCode(200)
  @Scopes('sessions:write')
  @StartAnswers()
  @ApiOperation({ summary: 'Start a payment session: the end user approves the transaction shown in the e-ID app (QR or autostart)' })
  payment(@CurrentPrincipal() principal: ApiKeyPrincipal, @Param('provider') provider: string, @Body() body: StartPaymentDto) {
    return this.sessions.start(principal, provider, body, { operation: 'payment', channel: 'app' });
  }
}
