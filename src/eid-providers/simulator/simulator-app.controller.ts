import { Body, Controller, Get, Post, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../../auth/access.decorators.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { isUuid } from '../../common/validation/is-uuid.js';
import type { UserVisibleTransaction } from '../eid-provider.js';
import { EidProviderRegistry } from '../eid-provider.registry.js';
import { qrMatrix } from '../../qr/qr-matrix.js';
import { renderQrSvg } from '../../qr/qr-svg.js';
import { birthdateOfPersonalNumber } from '../shared/personal-number-birthdate.js';
import { simulatorAppPage, simulatorAppPageHeaders, type SimulatorAppPageState, type SimulatorIdCardView } from './simulator-app-page.js';
import { SimulatorIdCards } from './simulator-idcards.js';
import { DEFAULT_USER } from './simulator.controller.js';
import { SimulatorProvider } from './simulator.provider.js';

/**
 * The simulated BankID app on the same device: the simulator's launchUrl opens it, a person taps
 * identify or cancel, and is sent on to the RP's returnUrl (docs/same-device.md). No API key: it is the
 * person's phone. It exists only while the simulator is enabled.
 */
@ApiExcludeController()
@Public()
@Controller('simulator/app')
export class SimulatorAppController {
  constructor(
    private readonly simulator: SimulatorProvider,
    private readonly registry: EidProviderRegistry,
    private readonly idCards: SimulatorIdCards,
  ) {}

  @Get()
  async open(@Query('autostarttoken') token: unknown, @Res() reply: FastifyReply): Promise<void> {
    this.ensureEnabled();
    // The app opened by itself: its home, where the holder can show a digital ID card (docs/idcard.md).
    if (token === undefined) return this.sendIdCard(reply, 200, DEFAULT_USER.personalNumber);
    const order = typeof token === 'string' && isUuid(token) ? await this.simulator.appOrder(token) : undefined;
    if (!order?.waiting) return this.send(reply, order ? 409 : 404, 'gone');
    this.send(reply, 200, 'waiting', token as string, order.returnUrl, order.shown.userVisibleTransaction);
  }

  @Post()
  async answer(@Body() body: unknown, @Res() reply: FastifyReply): Promise<void> {
    this.ensureEnabled();
    const { autostarttoken: token, action } = (body ?? {}) as Record<string, unknown>;
    if (typeof token !== 'string' || !isUuid(token) || (action !== 'approve' && action !== 'cancel')) {
      return this.send(reply, 400, 'gone');
    }
    const order = await this.simulator.appOrder(token);
    if (!order?.waiting) return this.send(reply, order ? 409 : 404, 'gone');
    const { givenName, surname, personalNumber } = DEFAULT_USER;
    try {
      await this.simulator.scan({
        autoStartToken: token,
        action,
        user: { personalNumber, givenName, surname, name: `${givenName} ${surname}` },
      });
    } catch (error) {
      // Another tap on the same order won the race: as BankID's app, show that the order is gone.
      if (error instanceof DomainException && error.code === 'session_not_pending') return this.send(reply, 409, 'gone');
      throw error;
    }
    // As the BankID app does: back to the RP's page (it carries the session's nonce), cancelled or not.
    if (order.returnUrl) return void reply.headers(simulatorAppPageHeaders()).redirect(order.returnUrl, 303);
    this.send(reply, 200, 'done');
  }

  /** "Show ID card": a new card for the holder whose personal number is given (default the simulator's), as the app shows it. */
  @Post('idcard')
  async showIdCard(@Body() body: unknown, @Res() reply: FastifyReply): Promise<void> {
    this.ensureEnabled();
    const { personalNumber } = (body ?? {}) as Record<string, unknown>;
    const holder = typeof personalNumber === 'string' ? personalNumber : DEFAULT_USER.personalNumber;
    if (!birthdateOfPersonalNumber(holder)) return this.sendIdCard(reply, 400, DEFAULT_USER.personalNumber);
    const { givenName, surname } = DEFAULT_USER;
    const shown = await this.idCards.show({ personalNumber: holder, givenName, surname });
    const card = { ...shown, name: `${givenName} ${surname}`, qrSvg: renderQrSvg(qrMatrix(shown.qrCode)) };
    this.sendIdCard(reply, 200, holder, card);
  }

  private sendIdCard(reply: FastifyReply, status: number, personalNumber: string, card?: SimulatorIdCardView): void {
    void reply
      .status(status)
      .headers(simulatorAppPageHeaders())
      .type('text/html; charset=utf-8')
      .send(simulatorAppPage(card ? 'idcard' : 'home', undefined, { card, personalNumber }));
  }

  private ensureEnabled(): void {
    if (!this.registry.isEnabled(this.simulator.name)) throw new DomainException('not_found', 'No such resource.');
  }

  private send(
    reply: FastifyReply,
    status: number,
    state: SimulatorAppPageState,
    token?: string,
    returnUrl?: string | null,
    transaction?: UserVisibleTransaction,
  ): void {
    const returnTo = returnUrl ? new URL(returnUrl) : undefined;
    void reply
      .status(status)
      .headers(simulatorAppPageHeaders(returnTo?.origin))
      .type('text/html; charset=utf-8')
      .send(simulatorAppPage(state, token ? { autoStartToken: token, transaction, returnHost: returnTo?.host } : undefined));
  }
}
