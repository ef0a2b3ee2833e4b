import { Body, Controller, Get, Headers, Inject, Post, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../../../auth/access.decorators.js';
import { DomainException } from '../../../common/problem-details/domain.exception.js';
import { eudiConfig, type EudiConfig } from '../eudi.config.js';
import { simulatorWalletPage, simulatorWalletPageHeaders, walletPageLanguage, type WalletPageState } from './simulator-wallet-page.js';
import { SimulatorWallet, type WalletRequestView } from './simulator-wallet.service.js';

/**
 * The simulator wallet (docs/eudi-wallet.md, "The simulator wallet"): a page that opens an
 * `openid4vp://` link, shows who asks for what, and shares a test PID or declines. No API key: it is
 * the person's wallet. It exists only where PROVIDERS enables both the wallet and the simulator.
 */
@ApiExcludeController()
@Public()
@Controller('simulator/wallet')
export class SimulatorWalletController {
  constructor(
    private readonly wallet: SimulatorWallet,
    @Inject(eudiConfig.KEY) private readonly config: EudiConfig,
  ) {}

  @Get()
  async open(@Query('link') link: unknown, @Headers('accept-language') language: string | undefined, @Res() reply: FastifyReply) {
    this.ensureEnabled();
    if (typeof link !== 'string' || link === '') return this.send(reply, 200, 'scan', language);
    const request = await this.wallet.read(link.trim());
    if (!request) return this.send(reply, 404, 'gone', language);
    this.send(reply, 200, 'consent', language, { request });
  }

  @Post()
  async answer(@Body() body: unknown, @Headers('accept-language') language: string | undefined, @Res() reply: FastifyReply) {
    this.ensureEnabled();
    const { link, action } = (body ?? {}) as Record<string, unknown>;
    if (typeof link !== 'string' || (action !== 'share' && action !== 'decline')) return this.send(reply, 400, 'gone', language);
    const outcome = await this.wallet.answer(link, action);
    if (!outcome) return this.send(reply, 404, 'gone', language);
    const state: WalletPageState = action === 'decline' ? 'declined' : outcome.accepted ? 'shared' : 'refused';
    this.send(reply, 200, state, language, { redirectUri: outcome.redirectUri });
  }

  private ensureEnabled(): void {
    if (!this.config.simulatorWallet) throw new DomainException('not_found', 'No such resource.');
  }

  private send(
    reply: FastifyReply,
    status: number,
    state: WalletPageState,
    language: string | undefined,
    details: { request?: WalletRequestView; redirectUri?: string } = {},
  ): void {
    void reply
      .status(status)
      .headers(simulatorWalletPageHeaders())
      .send(simulatorWalletPage(state, walletPageLanguage(language), details));
  }
}
