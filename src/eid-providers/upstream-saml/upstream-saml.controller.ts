import { Body, Controller, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../../auth/access.decorators.js';
import { isUuid } from '../../common/validation/is-uuid.js';
import { DONE_PAGE_HEADERS, donePage, donePageLanguage } from '../upstream-oidc/upstream-done-page.js';
import { UpstreamSamlSignIn } from './upstream-saml-sign-in.service.js';

const REDIRECT_HEADERS = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

/**
 * The person's browser on its way through an upstream SAML IdP (docs/saml.md, "Upstream SAML e-IDs"),
 * and our SP metadata for the IdP. No API key: the launch link is the session's.
 */
@ApiExcludeController()
@Public()
@Controller('upstream')
export class UpstreamSamlController {
  constructor(private readonly signIn: UpstreamSamlSignIn) {}

  @Get(':upstream/metadata')
  metadata(@Param('upstream') upstream: string, @Res() reply: FastifyReply): void {
    const xml = this.signIn.metadata(upstream);
    if (!xml) return void reply.code(404).headers(DONE_PAGE_HEADERS).send(donePage('invalid', 'en'));
    void reply.type('application/samlmetadata+xml; charset=utf-8').header('cache-control', 'public, max-age=3600').send(xml);
  }

  /** The launch link: on to the IdP with a signed AuthnRequest (HTTP-Redirect). */
  @Get(':upstream/login/:orderRef')
  async login(
    @Param('upstream') upstream: string,
    @Param('orderRef') orderRef: string,
    @Headers('accept-language') language: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const url = isUuid(orderRef) ? await this.signIn.authnRequestUrl(upstream, orderRef) : null;
    if (!url)
      return void reply
        .code(404)
        .headers(DONE_PAGE_HEADERS)
        .send(donePage('invalid', donePageLanguage(language, undefined)));
    reply.headers(REDIRECT_HEADERS).redirect(url, 302);
  }

  /** The ACS (HTTP-POST): one per upstream, so an answer counts only where its request was sent from. */
  @Post(':upstream/callback')
  @HttpCode(200)
  async acs(
    @Param('upstream') upstream: string,
    @Body() body: Record<string, unknown> | undefined,
    @Headers('accept-language') language: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const outcome = await this.signIn.acs(upstream, body?.SAMLResponse);
    if (outcome.kind === 'invalid')
      return void reply
        .code(400)
        .headers(DONE_PAGE_HEADERS)
        .send(donePage('invalid', donePageLanguage(language, undefined)));
    if (outcome.returnUrl) return void reply.headers(REDIRECT_HEADERS).redirect(outcome.returnUrl, 303);
    reply
      .code(outcome.status === 'complete' ? 200 : 400)
      .headers(DONE_PAGE_HEADERS)
      .send(donePage(outcome.status, donePageLanguage(language, outcome.country)));
  }
}
