import { Body, Controller, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../../auth/access.decorators.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { eudiConfig, type EudiConfig } from './eudi.config.js';
import { Openid4vpVerifier } from './openid4vp-verifier.service.js';

const NO_STORE = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

/**
 * The wallet's side of OpenID4VP 1.0 (docs/eudi-wallet.md, "The flow"). No API key: the request URI is
 * the session's, as a QR is, and the response is bound to its session by the session's own key.
 */
@ApiExcludeController()
@Public()
@Controller('openid4vp')
export class Openid4vpController {
  constructor(
    private readonly verifier: Openid4vpVerifier,
    @Inject(eudiConfig.KEY) private readonly config: EudiConfig,
  ) {}

  @Get('request/:id')
  async request(@Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    this.ensureEnabled();
    const requestObject = await this.verifier.requestObject(id);
    if (!requestObject) throw new DomainException('not_found', 'No pending presentation request of that id.');
    void reply
      .headers({ ...NO_STORE, 'content-type': 'application/oauth-authz-req+jwt' })
      .code(200)
      .send(requestObject);
  }

  @Post('response')
  @HttpCode(200)
  async response(@Body() body: unknown, @Res() reply: FastifyReply): Promise<void> {
    this.ensureEnabled();
    const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const outcome = await this.verifier.respond(fields);
    // OpenID4VP 1.0, 8.2: a JSON object, with redirect_uri where the person continues in their browser.
    if (outcome.kind === 'answered')
      return void reply
        .headers(NO_STORE)
        .code(200)
        .send(outcome.redirectUri ? { redirect_uri: outcome.redirectUri } : {});
    void reply.headers(NO_STORE).code(400).send({ error: 'invalid_request', error_description: outcome.description });
  }

  private ensureEnabled(): void {
    if (!this.config.enabled) throw new DomainException('not_found', 'No such resource.');
  }
}
