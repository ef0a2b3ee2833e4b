import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/access.decorators.js';
import { chooseLanguage } from '../common/languages/languages.js';
import { ApiProblems, VALIDATION } from '../common/problem-details/api-problems.decorator.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { IdCardSessions } from '../sessions/idcard-sessions.service.js';
import { CounterLinksService } from './counter-links.service.js';
import { counterPage, counterPageHeaders } from './counter-page.js';
import { CounterAnswerDto } from './dto/counter-link.dto.js';
import { VerifyIdCardDto } from './dto/verify-idcard.dto.js';

const here = dirname(fileURLToPath(import.meta.url));
const JAVASCRIPT = 'text/javascript; charset=utf-8';
// jsQR (Apache-2.0), served from here: the page loads nothing from another origin.
const ASSETS: Record<string, { path: string; contentType: string }> = {
  'counter.js': { path: join(here, 'assets', 'counter.js'), contentType: JAVASCRIPT },
  'counter.css': { path: join(here, 'assets', 'counter.css'), contentType: 'text/css; charset=utf-8' },
  'jsQR.js': { path: createRequire(import.meta.url).resolve('jsqr'), contentType: JAVASCRIPT },
};

/** The counter page, where a counter link verifies digital ID cards (docs/idcard.md): no API key, the link's token is the credential. */
@ApiTags('idcard')
@Public()
@Controller('kiosk/counter')
export class CounterController {
  private readonly assets = new Map(
    Object.entries(ASSETS).map(([name, { path, contentType }]) => {
      const body = readFileSync(path);
      return [name, { body, contentType, version: createHash('sha256').update(body).digest('hex').slice(0, 12) }] as const;
    }),
  );

  constructor(
    private readonly links: CounterLinksService,
    private readonly idCards: IdCardSessions,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The counter page: open a counter link (it carries its token in the fragment)' })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiProblems()
  page(
    @Query('lang') lang: string | undefined,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const versions = Object.fromEntries([...this.assets].map(([name, asset]) => [name, asset.version]));
    void reply
      .headers(counterPageHeaders())
      .type('text/html; charset=utf-8')
      .send(counterPage(chooseLanguage(lang, acceptLanguage), versions));
  }

  @Get('assets/:name')
  @ApiExcludeEndpoint()
  asset(@Param('name') name: string, @Res() reply: FastifyReply): void {
    const asset = this.assets.get(name);
    if (!asset) throw new DomainException('not_found', 'No such resource.');
    void reply
      .headers({ 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' })
      .type(asset.contentType)
      .send(asset.body);
  }

  @Post('verify')
  @HttpCode(200)
  @ApiHeader({ name: 'authorization', description: 'Counter <token from the counter link fragment>', required: true })
  @ApiOperation({ summary: "The counter page's check of a scanned ID card: verified or not, the holder's name and age" })
  @ApiOkResponse({ type: CounterAnswerDto })
  @ApiProblems(VALIDATION, 'invalid_kiosk_token', 'rate_limit_exceeded', 'payload_too_large', 'unknown_provider', 'provider_unavailable')
  async verify(@Headers('authorization') authorization: string | undefined, @Body() body: VerifyIdCardDto): Promise<CounterAnswerDto> {
    const { verifier, provider } = await this.links.authorize(authorization);
    const { view } = await this.idCards.verify(verifier, provider, body.qrCode, body.ageOver);
    // What the counter shows, no more: never the personal number or the evidence.
    return {
      sessionId: view.sessionId,
      verified: view.evidence?.verification?.status === 'verified',
      ...(view.user ? { name: view.user.name, age: view.user.age } : {}),
      ...(view.ageVerification ? { ageVerification: { ageOver: view.ageVerification.ageOver, result: view.ageVerification.result } } : {}),
    };
  }
}
