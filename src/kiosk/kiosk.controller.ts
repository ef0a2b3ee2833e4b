import { Controller, Get, Headers, HttpCode, Inject, Options, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/access.decorators.js';
import { ApiProblems } from '../common/problem-details/api-problems.decorator.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { isUuid } from '../common/validation/is-uuid.js';
import { kioskConfig, type KioskConfig } from '../config/kiosk.config.js';
import { EidProviderRegistry } from '../eid-providers/eid-provider.registry.js';
import { loadKioskAssets, type KioskAsset } from './kiosk-assets.js';
import { KioskLinks } from '../kiosk-tokens/kiosk-links.js';
import { chooseLanguage } from '../common/languages/languages.js';
import { kioskPage, kioskPageHeaders } from './kiosk-page.js';
import { SessionScreenReader } from '../sessions/session-screen-reader.js';
import { clientAddressOf } from '../protection/client-address.js';
import { KioskStreamsService } from './kiosk-streams.service.js';

// `<eid-qr>` runs on the RP's own pages: its files and the stream are readable from any origin. That is
// safe because no cookie is ever sent or honoured; the kiosk token in a header is the only credential.
const CROSS_ORIGIN = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' };
const PREFLIGHT = {
  ...CROSS_ORIGIN,
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'authorization',
  'access-control-max-age': '600',
};

/** The kiosk page and `<eid-qr>` (docs/kiosk.md): no API key; the kiosk token is the only credential. */
@ApiTags('kiosk')
@Public()
@Controller('kiosk')
export class KioskController {
  private readonly assets: Map<string, KioskAsset>;
  private readonly pageHeaders: Record<string, string>;

  constructor(
    private readonly links: KioskLinks,
    private readonly streams: KioskStreamsService,
    private readonly reader: SessionScreenReader,
    @Inject(kioskConfig.KEY) config: KioskConfig,
    providers: EidProviderRegistry,
  ) {
    this.assets = loadKioskAssets(providers.all());
    this.pageHeaders = kioskPageHeaders(config.frameAncestors);
  }

  @Get('assets/:name')
  @ApiExcludeEndpoint()
  asset(@Param('name') name: string, @Res() reply: FastifyReply): void {
    this.sendAsset(reply, name, 'public, max-age=86400');
  }

  @Get('eid-qr.js')
  @ApiOperation({ summary: 'The <eid-qr session token lang> web component for your own pages (docs/same-device.md)' })
  @ApiProduces('text/javascript')
  @ApiOkResponse({ description: 'An ES module defining `<eid-qr>`.', content: { 'text/javascript': { schema: { type: 'string' } } } })
  @ApiProblems()
  component(@Res() reply: FastifyReply): void {
    // RPs link this address without a version: a short cache lets a release reach them within minutes.
    this.sendAsset(reply, 'eid-qr.js', 'public, max-age=300');
  }

  @Options(':sessionId/:stream')
  @HttpCode(204)
  @ApiExcludeEndpoint()
  preflight(@Res() reply: FastifyReply): void {
    void reply.status(204).headers(PREFLIGHT).send();
  }

  @Get(':sessionId')
  @ApiOperation({ summary: "The kiosk page of a session: its rotating QR, then the outcome (open the start answer's kioskUrl)" })
  @ApiProduces('text/html')
  @ApiOkResponse({
    description: 'The page; its script reads the token from the URL fragment.',
    content: { 'text/html': { schema: { type: 'string' } } },
  })
  @ApiProblems('not_found')
  page(
    @Param('sessionId') sessionId: string,
    @Query('lang') lang: string | undefined,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() reply: FastifyReply,
  ): void {
    if (!isUuid(sessionId)) throw new DomainException('not_found', 'No such resource.');
    // ?lang= as the start answer's kioskUrl may carry it, else the browser's (docs/kiosk.md, "Languages").
    const language = chooseLanguage(lang, acceptLanguage);
    void reply.headers(this.pageHeaders).type('text/html; charset=utf-8').send(kioskPage(language, this.assets));
  }

  @Get(':sessionId/launch')
  @ApiHeader({ name: 'authorization', description: 'Kiosk <token from the kioskUrl fragment>', required: true })
  @ApiOperation({ summary: "The current order's same-device link for <eid-qr>'s button that opens the e-ID app (null once it has ended)" })
  @ApiOkResponse({
    description: '`{launchUrl}`: a URL, or null once the order has ended.',
    content: {
      'application/json': {
        schema: { type: 'object', properties: { launchUrl: { type: ['string', 'null'], format: 'uri' } }, required: ['launchUrl'] },
      },
    },
  })
  @ApiProblems('invalid_kiosk_token', 'session_not_found', 'rate_limit_exceeded')
  async launch(
    @Param('sessionId') sessionId: string,
    @Headers('authorization') authorization: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    void reply.headers(CROSS_ORIGIN);
    this.links.authorize(authorization, sessionId, 'launch');
    const launchUrl = await this.reader.launchUrl(sessionId);
    void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send({ launchUrl });
  }

  @Get(':sessionId/events')
  @ApiHeader({ name: 'authorization', description: 'Kiosk <token from the kioskUrl fragment>', required: true })
  @ApiOperation({ summary: 'Server-sent events for the kiosk page: a QR frame every second, then status changes' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'An event stream (docs/kiosk.md).', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  @ApiProblems('invalid_kiosk_token', 'session_not_found', 'rate_limit_exceeded')
  async events(
    @Param('sessionId') sessionId: string,
    @Headers('authorization') authorization: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    // Set first, so that <eid-qr> on another origin can also read a refusal (and show "invalid link").
    void reply.headers(CROSS_ORIGIN);
    this.links.authorize(authorization, sessionId);
    const address = clientAddressOf(request.ip);
    const state = await this.streams.prepare(sessionId, address);
    // From here the stream is ours: Fastify must not answer (or time out) this request itself.
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      // no-transform: a compressing proxy would buffer the stream and frames would arrive in bursts.
      'cache-control': 'no-store, no-transform',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-request-id': String(request.id),
      ...CROSS_ORIGIN,
    });
    // After a blip the page reconnects itself (it sends a header, so it reads the stream with fetch).
    raw.write('retry: 2000\n\n');
    const viewer = {
      send: (event: string) => void raw.write(event),
      close: () => raw.end(),
    };
    raw.on('close', () => {
      this.streams.detach(sessionId, viewer);
      this.streams.release(address);
    });
    this.streams.attach(state, viewer);
  }

  private sendAsset(reply: FastifyReply, name: string, cacheControl: string): void {
    const asset = this.assets.get(name);
    if (!asset) throw new DomainException('not_found', 'No such resource.');
    void reply
      .headers(CROSS_ORIGIN)
      .header('content-type', asset.contentType)
      .header('cache-control', cacheControl)
      .header('x-content-type-options', 'nosniff')
      .send(asset.body);
  }
}
