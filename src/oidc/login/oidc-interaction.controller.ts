import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Body, Controller, Get, HttpCode, Logger, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/access.decorators.js';
import { chooseLanguage } from '../../common/languages/languages.js';
import { chooserPage, LOGIN_PAGE_HEADERS, loginChoicePage, loginPage, loginProblemPage } from './oidc-login-page.js';
import { OidcInteractionsService } from './oidc-interactions.service.js';

const here = dirname(fileURLToPath(import.meta.url));
const ASSETS: Record<string, { body: Buffer; type: string }> = {
  'login.js': { body: readFileSync(join(here, 'assets', 'login.js')), type: 'text/javascript; charset=utf-8' },
  'login.css': { body: readFileSync(join(here, 'assets', 'login.css')), type: 'text/css; charset=utf-8' },
};
/** The login page's asset version, for the other fronts that show the page (docs/saml.md). */
export const ASSET_VERSION = createHash('sha256')
  .update(
    Object.values(ASSETS)
      .map((asset) => asset.body.toString('utf8'))
      .join('\0'),
  )
  .digest('hex')
  .slice(0, 12);

/** Our login interaction of the OpenID Provider (docs/oidc.md, "The login page"). */
@ApiExcludeController()
@Public()
@Controller('oidc')
export class OidcInteractionController {
  private readonly logger = new Logger('OidcInteraction');

  constructor(private readonly interactions: OidcInteractionsService) {}

  @Get('interaction-assets/:name')
  asset(@Param('name') name: string, @Res() reply: FastifyReply): void {
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) {
      void reply.status(404).type('application/json').send({ error: 'invalid_request', error_description: 'No such file.' });
      return;
    }
    void reply
      .type(asset.type)
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(asset.body);
  }

  @Get('interaction/:uid')
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('eidgw_nonce') nonce: unknown): Promise<void> {
    const uid = (request.params as { uid: string }).uid;
    // The e-ID app's return (docs/same-device.md): checked, then on to the end, leaving the nonce out of the address.
    if (typeof nonce === 'string') {
      const checked = await this.guarded(reply, () => this.interactions.returned(request, reply, nonce).then(() => true), 'otherBrowser');
      if (checked)
        void reply
          .status(303)
          .header('location', `/oidc/interaction/${encodeURIComponent(uid)}/done`)
          .send();
      return;
    }
    const state = await this.guarded(reply, () => this.interactions.open(request, reply));
    if (!state || state.kind === 'finished') return;
    const language = chooseLanguage(state.uiLocales, request.headers['accept-language']);
    const common = { language, uid, clientName: state.client.name, redirectHost: state.redirectHost, assetVersion: ASSET_VERSION };
    const html =
      state.kind === 'pick'
        ? chooserPage({ ...common, operation: state.operation, entries: state.entries })
        : state.kind === 'choose'
          ? loginChoicePage({ ...common, operation: state.operation, devices: state.devices, redirects: state.redirects })
          : loginPage({
              ...common,
              operation: state.login.operation ?? 'auth',
              sessionId: state.login.sessionId,
              kioskToken: state.login.kioskToken ?? '',
              device: state.login.chosen,
              awaitReturn: state.login.chosen === 'this' && !state.login.returned,
            });
    void reply.headers(LOGIN_PAGE_HEADERS).type('text/html; charset=utf-8').send(html);
  }

  /** The person's pick on the chooser (docs/oidc.md, "The chooser"): then the page for that e-ID. */
  @Post('interaction/:uid/pick')
  async pick(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() body: unknown): Promise<void> {
    const acr = (body as { acr?: unknown } | undefined)?.acr;
    const state = await this.guarded(reply, () => this.interactions.pick(request, reply, acr));
    if (!state || reply.sent) return;
    const location = `/oidc/interaction/${encodeURIComponent((request.params as { uid: string }).uid)}`;
    void reply.status(303).headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).header('location', location).send();
  }

  /** The person's choice starts the e-ID session (a form post: the interaction's cookie is SameSite=Lax). */
  @Post('interaction/:uid/start')
  async start(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() body: unknown): Promise<void> {
    const device = (body as { device?: unknown } | undefined)?.device;
    const state = await this.guarded(reply, () => this.interactions.start(request, reply, device));
    if (!state || reply.sent) return;
    const location =
      state.kind === 'redirect' ? state.location : `/oidc/interaction/${encodeURIComponent((request.params as { uid: string }).uid)}`;
    void reply.status(303).headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).header('location', location).send();
  }

  @Get('interaction/:uid/done')
  async done(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const finished = await this.guarded(reply, () => this.interactions.done(request, reply));
    // Still pending (a reload, a step back): the page again.
    if (finished === false)
      void reply
        .status(303)
        .header('location', `/oidc/interaction/${encodeURIComponent((request.params as { uid: string }).uid)}`)
        .send();
  }

  @Post('interaction/:uid/cancel')
  @HttpCode(303)
  async cancel(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.guarded(reply, () => this.interactions.cancel(request, reply));
  }

  /** An unknown or expired interaction (no cookie, a stale tab) gets a page that says so, not a stack trace. */
  private async guarded<T>(
    reply: FastifyReply,
    work: () => Promise<T>,
    problem: 'problem' | 'otherBrowser' = 'problem',
  ): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      const name = (error as Error).name;
      if (name !== 'SessionNotFound' && name !== 'InvalidRequest') throw error;
      this.logger.debug({ err: name }, 'Login interaction not found');
      if (!reply.sent) {
        void reply
          .status(400)
          .headers(LOGIN_PAGE_HEADERS)
          .type('text/html; charset=utf-8')
          .send(loginProblemPage(chooseLanguage(undefined, reply.request.headers['accept-language']), problem));
      }
      return undefined;
    }
  }
}
