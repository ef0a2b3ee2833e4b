import { isDatabaseUnavailable } from '../../database/database-unavailable.js';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ApiKeyPrincipal } from '../../auth/principal.js';
import { Clock } from '../../common/clock/clock.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { ValidationProblemException } from '../../common/problem-details/validation-problem.exception.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { sessionsConfig, type SessionsConfig } from '../../config/sessions.config.js';
import type { PendingRow } from '../../database/entity-insert.js';
import type {
  AcrDevice,
  EidChannel,
  EidOperation,
  EidProvider,
  StartedOrder,
  StartOrderRequest,
} from '../../eid-providers/eid-provider.js';
import { EidProviderRegistry } from '../../eid-providers/eid-provider.registry.js';
import { KioskLinks } from '../../kiosk-tokens/kiosk-links.js';
import type { StartSessionBody } from './dto/start-session-body.js';
import { orderRequestOf } from './order-request.js';
import { describeProviderError } from '../settlement/provider-error.js';
import { newReturnNonce, returnNonceHash, returnUrlProblem, withReturnNonce } from './return-url.js';
import { renewalRequestAad, signedTextsAad } from '../session-encryption.js';
import { orderColumnsOf } from '../session-order-columns.js';
import { signedTextsOf } from '../settlement/session-result.js';
import { SessionReader } from './session-reader.js';
import { POLL_COLLECT_LAG_INTERVALS, SessionSettlement } from '../settlement/session-settlement.js';
import { SessionMetrics } from '../session-metrics.js';
import type { SessionView } from '../session-view.js';
import type { Session } from '../session.entity.js';
import { SessionStore } from '../session.store.js';

const AUTH_APP = { operation: 'auth', channel: 'app' } as const;

/**
 * The API's use cases on sessions: start, poll, cancel and the QR. How sessions end is SessionSettlement's;
 * reading them for an answer SessionReader's; the same-device return SessionReturnsService's.
 */
@Injectable()
export class SessionsService {
  private readonly logger = new Logger(SessionsService.name);

  constructor(
    private readonly store: SessionStore,
    private readonly reader: SessionReader,
    private readonly settlement: SessionSettlement,
    private readonly providers: EidProviderRegistry,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    private readonly kioskLinks: KioskLinks,
    @Inject(sessionsConfig.KEY) private readonly config: SessionsConfig,
    private readonly metrics: SessionMetrics,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
  ) {}

  /**
   * Starts any of the four kinds (docs/api.md, "Signing and the phone channel"); the body was validated for its kind.
   * `device` (the OpenID login's acr, docs/same-device.md): a `qr` session keeps no launch link and a
   * `same-device` one no QR, so that no screen can show what the acr the client is told excludes.
   */
  async start(
    principal: ApiKeyPrincipal,
    providerName: string,
    request: StartSessionBody,
    kind: { operation: EidOperation; channel: EidChannel } = AUTH_APP,
    device: AcrDevice = 'either',
  ) {
    const returnUrlError = request.returnUrl === undefined ? undefined : returnUrlProblem(request.returnUrl, this.server.production);
    if (returnUrlError) throw new ValidationProblemException([{ pointer: '/returnUrl', detail: returnUrlError }]);
    // An age answer replaces an identification; a signature or a payment names its person (docs/age-verification.md).
    if (request.ageOver !== undefined && kind.operation !== 'auth')
      throw new ValidationProblemException([{ pointer: '/ageOver', detail: 'ageOver applies to an identification (auth) only' }]);
    const provider = this.providers.forStart(providerName, principal.apiKey.environment, kind);
    // The nonce rides inside the returnUrl the provider gets; we keep only its hash (docs/same-device.md).
    const returnNonce = request.returnUrl === undefined ? undefined : newReturnNonce();
    const returnUrl = request.returnUrl && returnNonce ? withReturnNonce(request.returnUrl, returnNonce) : undefined;
    const orderRequest = orderRequestOf(request, kind, principal.apiKey.environment, returnUrl);
    const started = await this.callProvider(provider, 'start', () => startOrder(provider, orderRequest));
    const order = withoutExcluded(started.order, device);
    const now = this.clock.now();
    const id = randomUUID();
    // Kept to check the provider's signature against (docs/evidence.md).
    const texts = signedTextsOf(request);
    // A renewed order would bring back what the device excludes: a restricted session is never renewed.
    const autoRenew = request.autoRenew === true && Boolean(order.qr || order.launchUrl) && device === 'either';
    const session: Session = {
      id,
      teamId: principal.team.id,
      apiKeyId: principal.apiKey.id,
      environment: principal.apiKey.environment,
      provider: provider.name,
      operation: kind.operation,
      channel: kind.channel,
      ...orderColumnsOf(this.cipher, id, order),
      status: 'pending',
      hintCode: 'outstandingTransaction',
      endUserIp: request.endUserIp ?? null,
      metadata: request.metadata ?? null,
      completionEnc: null,
      signedTextsEnc: Object.keys(texts).length ? this.cipher.encryptJson(texts, signedTextsAad(id)) : null,
      evidenceEnc: null,
      resultTokenEnc: null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.config.sessionTtlMs),
      completedAt: null,
      // The order was just made: the first collect is due one interval from now.
      lastCollectedAt: now,
      piiPurgedAt: null,
      returnNonceHash: returnNonce ? returnNonceHash(returnNonce) : null,
      returnNonceFailures: 0,
      returnedAt: null,
      autoRenew,
      renewalRequestEnc: autoRenew ? this.cipher.encryptJson(orderRequest, renewalRequestAad(id)) : null,
      renewals: 0,
      maxRisk: principal.apiKey.maxRisk ?? null,
      ageOver: request.ageOver ?? null,
    };
    await this.store.insert(session, started.row);
    this.metrics.sessionStarted(provider.name, kind.operation);
    return {
      sessionId: id,
      provider: provider.name,
      operation: session.operation,
      channel: session.channel,
      status: session.status,
      ...(session.ageOver ? { ageOver: session.ageOver } : {}),
      qrStartToken: order.qr?.startToken,
      qrStartSecret: order.qr?.startSecret,
      autoStartToken: order.autoStartToken,
      launchUrl: order.launchUrl,
      // A static QR is known at the start, the same content the QR route serves (docs/api.md).
      qrData: provider.qr?.kind === 'static' ? provider.qr.data(order.orderRef) : undefined,
      createdAt: session.createdAt.toISOString(),
      expiresAt: session.expiresAt.toISOString(),
      // A kiosk shows a QR, or a same-device session's launch button: providers without either get no link.
      kioskUrl:
        order.qr || provider.qr?.kind === 'static' || (device === 'same-device' && order.launchUrl)
          ? this.kioskLinks.urlFor(id, session.expiresAt)
          : undefined,
    };
  }

  /**
   * The stored state: the background collector keeps it fresh, so a poll collects only when the
   * collector is two intervals behind (docs/performance.md, "Poll").
   */
  async poll(principal: ApiKeyPrincipal, sessionId: string): Promise<SessionView> {
    const session = await this.reader.findForKey(principal, sessionId);
    return this.reader.view(await this.settlement.collectIfDue(session, POLL_COLLECT_LAG_INTERVALS));
  }

  async cancel(principal: ApiKeyPrincipal, sessionId: string): Promise<SessionView> {
    const session = await this.reader.findForKey(principal, sessionId);
    if (session.status !== 'pending') throw new DomainException('session_not_pending', 'The session has already ended.');
    const provider = this.providers.find(session.provider);
    if (provider) await this.callProvider(provider, 'cancel', () => provider.cancel(session));
    const updated = await this.settlement.apply(session, { kind: 'fail', hintCode: 'cancelled' });
    if (!updated) throw new DomainException('session_not_pending', 'The session has already ended.');
    return this.reader.view(updated);
  }

  private async callProvider<T>(provider: EidProvider, operation: string, call: () => Promise<T>): Promise<T> {
    try {
      return await this.metrics.timeProviderCall(provider.name, operation, call);
    } catch (error) {
      if (error instanceof DomainException || error instanceof ValidationProblemException) throw error;
      // Our own database away (the simulator keeps its orders there) is a 503, not the provider's outage.
      if (isDatabaseUnavailable(error)) throw error;
      this.logger.warn({ provider: provider.name, operation, err: describeProviderError(error) }, 'e-ID provider call failed');
      throw new DomainException('provider_unavailable', `The ${provider.name} provider did not answer; try again shortly.`);
    }
  }
}

/** The order, and its row where the provider keeps one for the session's INSERT to write (docs/performance.md). */
async function startOrder(provider: EidProvider, request: StartOrderRequest): Promise<{ order: StartedOrder; row?: PendingRow }> {
  return provider.startWithSession ? provider.startWithSession(request) : { order: await provider.start(request) };
}

/** The order as the device allows it to be shown: no launch link for a QR-only session, no QR for a same-device one. */
function withoutExcluded(order: StartedOrder, device: AcrDevice): StartedOrder {
  if (device === 'qr') return { ...order, autoStartToken: undefined, launchUrl: undefined };
  if (device === 'same-device') return { ...order, qr: undefined };
  return order;
}
