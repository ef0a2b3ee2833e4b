import { Controller, Get, Headers, Logger, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/access.decorators.js';
import { isUuid } from '../../common/validation/is-uuid.js';
import { DONE_PAGE_HEADERS, donePage, donePageLanguage } from './upstream-done-page.js';
import { UpstreamSignIn } from './upstream-sign-in.service.js';

/**
 * The person's browser on its way through an upstream OpenID provider (docs/upstream-oidc.md). No API
 * key: the launch link is the session's, as BankID's autostart link is.
 */
@ApiExcludeController()
@Public()
@Controller('upstream')
export class UpstreamOidcController {
  private readonly logger = new Logger(UpstreamOidcController.name);

  constructor(private readonly signIn: UpstreamSignIn) {}

  /** `ui_locales` on the launch link (the OpenID front's language, docs/upstream-oidc.md) goes on to the upstream. */
  @Get(':orderRef/go')
  async go(
    @Param('orderRef') orderRef: string,
    @Query('ui_locales') uiLocales: unknown,
    @Headers('accept-language') language: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    let url: URL | null;
    const tags = languageTagsOf(uiLocales);
    try {
      url = isUuid(orderRef) ? await this.signIn.authorizationUrl(orderRef, tags) : null;
    } catch (error) {
      const { name, code, message } = error as { name?: string; code?: string; message?: string };
      this.logger.error({ err: { name, code, message } }, 'The request to the upstream could not be made');
      return void reply
        .code(502)
        .headers(DONE_PAGE_HEADERS)
        .send(donePage('failed', donePageLanguage(language, undefined, tags)));
    }
    if (!url)
      return void reply
        .code(404)
        .headers(DONE_PAGE_HEADERS)
        .send(donePage('invalid', donePageLanguage(language, undefined, tags)));
    reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).redirect(url.href, 302);
  }

  @Get(':upstream/callback')
  async callback(
    @Param('upstream') upstream: string,
    @Req() request: FastifyRequest,
    @Headers('accept-language') language: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const queryAt = request.url.indexOf('?');
    const outcome = await this.signIn.callback(upstream, new URLSearchParams(queryAt < 0 ? '' : request.url.slice(queryAt + 1)));
    if (outcome.kind === 'invalid')
      return void reply
        .code(400)
        .headers(DONE_PAGE_HEADERS)
        .send(donePage('invalid', donePageLanguage(language, undefined)));
    if (outcome.returnUrl)
      return void reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).redirect(outcome.returnUrl, 303);
    reply
      .code(200)
      .headers(DONE_PAGE_HEADERS)
      .send(donePage(outcome.status, donePageLanguage(language, outcome.country)));
  }
}

// Up to five BCP 47 language tags ("nb-NO fi"); anything else on the link is dropped, not passed on.
const LANGUAGE_TAG = /^[a-z]{2,3}(?:-[a-z0-9]{1,8}){0,3}$/i;
function languageTagsOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 100) return undefined;
  const tags = value.split(' ').filter(Boolean);
  return tags.length > 0 && tags.length <= 5 && tags.every((tag) => LANGUAGE_TAG.test(tag)) ? tags.join(' ') : undefined;
}
