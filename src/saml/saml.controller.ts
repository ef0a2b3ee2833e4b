import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/access.decorators.js';
import { ASSET_VERSION } from '../oidc/login/oidc-interaction.controller.js';
import { chooseLanguage } from '../common/languages/languages.js';
import { LOGIN_PAGE_HEADERS, loginPage, returnHostOf } from '../oidc/login/oidc-login-page.js';
import { SamlMetadataService } from './metadata/saml-metadata.service.js';
import { postFormHeaders, postFormPage } from './response/saml-post-form.js';
import { SamlLogoutService } from './slo/saml-logout.service.js';
import type { SamlAnswer } from './sso/saml-answer.js';
import { SamlLoginService } from './sso/saml-login.service.js';
import { samlProblemPage } from './sso/saml-pages.js';
import { SamlSsoService } from './sso/saml-sso.service.js';

const here = dirname(fileURLToPath(import.meta.url));
const POST_SCRIPT = readFileSync(join(here, 'assets', 'post.js'));
const EXPIRED = 'Inloggningen har gått ut eller är ogiltig. / The login has expired or is invalid.';

/** The SAML IdP front (docs/saml.md): metadata, SSO, SLO and the login page it shares with the OIDC front. */
@ApiExcludeController()
@Public()
@Controller('saml')
export class SamlController {
  constructor(
    private readonly metadataService: SamlMetadataService,
    private readonly sso: SamlSsoService,
    private readonly logins: SamlLoginService,
    private readonly logout: SamlLogoutService,
  ) {}

  @Get('metadata')
  metadata(@Res() reply: FastifyReply): void {
    void reply
      .type('application/samlmetadata+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(this.metadataService.metadata());
  }

  @Get('assets/post.js')
  postScript(@Res() reply: FastifyReply): void {
    void reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(POST_SCRIPT);
  }

  @Get('sso')
  async ssoRedirect(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.sso.begin(request, 'redirect'));
  }

  @Post('sso')
  @HttpCode(200)
  async ssoPost(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.sso.begin(request, 'post'));
  }

  @Get('slo')
  async sloRedirect(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.logout.answer(request, 'redirect'));
  }

  @Post('slo')
  @HttpCode(200)
  async sloPost(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.logout.answer(request, 'post'));
  }

  /** The OIDC front's login page, with its end and cancel here (docs/saml.md, "The login"). */
  @Get('login/:uid')
  async page(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('uid') uid: string,
    @Query('eidgw_nonce') nonce: unknown,
  ): Promise<void> {
    const open = await this.logins.open(request, uid);
    if (!open) return send(reply, { kind: 'problem', status: 400, message: EXPIRED });
    // An upstream's callback brought the browser back (docs/saml.md, "The login"): checked, then the page without the nonce.
    if (typeof nonce === 'string') {
      await this.logins.returned(open, nonce);
      return send(reply, { kind: 'redirect', location: `/saml/login/${encodeURIComponent(uid)}` });
    }
    const html = loginPage({
      language: chooseLanguage(undefined, request.headers['accept-language']),
      uid,
      clientName: open.sp.name,
      redirectHost: returnHostOf(open.login.acsUrl),
      operation: open.login.operation,
      sessionId: open.login.sessionId,
      kioskToken: open.login.kioskToken ?? '',
      assetVersion: ASSET_VERSION,
      actionBase: `/saml/login/${encodeURIComponent(uid)}`,
      awaitReturn: false,
    });
    void reply.headers(LOGIN_PAGE_HEADERS).type('text/html; charset=utf-8').send(html);
  }

  @Get('login/:uid/done')
  async done(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('uid') uid: string): Promise<void> {
    const open = await this.logins.open(request, uid);
    if (!open) return send(reply, { kind: 'problem', status: 400, message: EXPIRED });
    const answer = await this.logins.done(open);
    // Still pending (a reload, a step back): the page again.
    send(reply, answer === 'pending' ? { kind: 'redirect', location: `/saml/login/${encodeURIComponent(uid)}` } : answer);
  }

  @Post('login/:uid/cancel')
  @HttpCode(200)
  async cancel(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('uid') uid: string): Promise<void> {
    const open = await this.logins.open(request, uid);
    send(reply, open ? await this.logins.cancel(open) : { kind: 'problem', status: 400, message: EXPIRED });
  }
}

function send(reply: FastifyReply, answer: SamlAnswer): void {
  if (answer.kind === 'post') {
    void reply
      .status(200)
      .headers(postFormHeaders(answer.action))
      .type('text/html; charset=utf-8')
      .send(postFormPage(answer.action, answer.fields));
    return;
  }
  if (answer.kind === 'redirect') {
    if (answer.setCookie) void reply.header('set-cookie', answer.setCookie);
    void reply
      .status(303)
      .headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
      .header('location', answer.location)
      .send();
    return;
  }
  void reply.status(answer.status).headers(LOGIN_PAGE_HEADERS).type('text/html; charset=utf-8').send(samlProblemPage(answer.message));
}
