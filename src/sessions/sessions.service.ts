import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ApiKeyPrincipal } from '../common/access/principal.js';
import { Clock } from '../common/clock/clock.js';
import { DataCipher } from '../common/crypto/data-cipher.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { ValidationProblemException } from '../common/problem-details/validation-problem.exception.js';
import { isUuid } from '../common/validation/is-uuid.js';
import { serverConfig, type ServerConfig } from '../config/server.config.js';
import { sessionsConfig, type SessionsConfig } from '../config/sessions.config.js';
import type { CompletedIdentity, EidChannel, EidOperation, EidProvider, StartOrderRequest } from '../eid-providers/eid-provider.js';
import { EidProviderRegistry } from '../eid-providers/eid-provider.registry.js';
import { KioskLinks } from '../kiosk/kiosk-links.js';
import type { StartSessionBody } from './dto/start-session-body.js';
import { describeProviderError } from './provider-error.js';
import { evidenceView, type StoredEvidence } from '../evidence/evidence.service.js';
import { newReturnNonce, returnNonceHash, returnNonceMatches, returnUrlProblem, withReturnNonce } from './return-url.js';
import {
  completionAad,
  evidenceAad,
  launchUrlAad,
  qrSecretAad,
  renewalRequestAad,
  resultTokenAad,
  signedTextsAad,
} from './session-encryption.js';
import { signedTextsOf } from './session-result.js';
import type { QrSource } from '../qr/qr-frame.js';
import { SessionQrSources } from './session-qr-sources.js';
import { SessionSettlement } from './session-settlement.js';
import { SessionMetrics } from './session-metrics.js';
import { sessionView, type SessionView } from './session-view.js';
import type { Session } from './session.entity.js';
import { SessionStore } from './session.store.js';

/** Wrong return nonces a session tolerates; the third fails it (docs/same-device.md). */
export const RETURN_NONCE_ATTEMPTS = 3;
const AUTH_APP = { operation: 'auth', channel: 'app' } as const;

/** The API's use cases on sessions: start, poll, cancel and the QR. How sessions end is SessionSettlement's. */
@Injectable()
export class SessionsService {
  private readonly logger = new Logger(SessionsService.name);

  constructor(
    private readonly store: SessionStore,
    private readonly settlement: SessionSettlement,
    private readonly providers: EidProviderRegistry,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    private readonly kioskLinks: KioskLinks,
    private readonly qrSources: SessionQrSources,
    @Inject(sessionsConfig.KEY) private readonly config: SessionsConfig,
    private readonly metrics: SessionMetrics,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
  ) {}

  /** Starts any of the four kinds (docs/api.md, "Signing and the phone channel"); the body was validated for its kind. */
  async start(
    principal: ApiKeyPrincipal,
    providerName: string,
    request: StartSessionBody,
    kind: { operation: EidOperation; channel: EidChannel } = AUTH_APP,
  ) {
    const returnUrlError = request.returnUrl === undefined ? undefined : returnUrlProblem(request.returnUrl, this.server.production);
    if (returnUrlError) throw new ValidationProblemException([{ pointer: '/returnUrl', detail: returnUrlError }]);
    const provider = this.providers.forStart(providerName, principal.apiKey.environment, kind);
    // The nonce rides inside the returnUrl the provider gets; we keep only its hash (docs/same-device.md).
    const returnNonce = request.returnUrl === undefined ? undefined : newReturnNonce();
    const orderRequest: StartOrderRequest = {
      environment: principal.apiKey.environment,
      ...kind,
      endUserIp: request.endUserIp,
      userVisibleData: request.userVisibleData,
      userVisibleDataFormat: request.userVisibleDataFormat,
      userNonVisibleData: request.userNonVisibleData,
      requirement: request.requirement,
      returnUrl: request.returnUrl && returnNonce ? withReturnNonce(request.returnUrl, returnNonce) : undefined,
      personalNumber: request.personalNumber,
      callInitiator: request.callInitiator,
      userInfoType: request.userInfoType,
      userInfo: request.userInfo,
      minRegistrationLevel: request.minRegistrationLevel,
    };
    const order = await this.callProvider(provider, 'start', () => provider.start(orderRequest));
    const now = this.clock.now();
    const id = randomUUID();
    // Kept to check the provider's signature against (docs/evidence.md).
    const texts = signedTextsOf(request);
    const autoRenew = request.autoRenew === true && Boolean(order.qr || order.launchUrl);
    const session: Session = {
      id,
      teamId: principal.team.id,
      apiKeyId: principal.apiKey.id,
      environment: principal.apiKey.environment,
      provider: provider.name,
      operation: kind.operation,
      channel: kind.channel,
      orderRef: order.orderRef,
      status: 'pending',
      hintCode: 'outstandingTransaction',
      qrStartToken: order.qr?.startToken ?? null,
      qrStartSecretEnc: order.qr ? this.cipher.encrypt(order.qr.startSecret, qrSecretAad(id)) : null,
      orderTime: order.orderTime,
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
      launchUrlEnc: order.launchUrl ? this.cipher.encrypt(order.launchUrl, launchUrlAad(id)) : null,
      autoRenew,
      renewalRequestEnc: autoRenew ? this.cipher.encryptJson(orderRequest, renewalRequestAad(id)) : null,
      renewals: 0,
    };
    await this.store.insert(session);
    this.metrics.sessionStarted(provider.name, kind.operation);
    return {
      sessionId: id,
      provider: provider.name,
      operation: session.operation,
      channel: session.channel,
      status: session.status,
      qrStartToken: order.qr?.startToken,
      qrStartSecret: order.qr?.startSecret,
      autoStartToken: order.autoStartToken,
      launchUrl: order.launchUrl,
      createdAt: session.createdAt.toISOString(),
      expiresAt: session.expiresAt.toISOString(),
      // A kiosk shows a QR: providers without one get no link.
      kioskUrl: order.qr || provider.staticQrData ? this.kioskLinks.urlFor(id, session.expiresAt) : undefined,
    };
  }

  /** The stored state, refreshed from the provider first when the last collect is due. */
  async poll(principal: ApiKeyPrincipal, sessionId: string): Promise<SessionView> {
    const session = await this.findForKey(principal, sessionId);
    return this.view(await this.settlement.collectIfDue(session));
  }

  async cancel(principal: ApiKeyPrincipal, sessionId: string): Promise<SessionView> {
    const session = await this.findForKey(principal, sessionId);
    if (session.status !== 'pending') throw new DomainException('session_not_pending', 'The session has already ended.');
    const provider = this.providers.find(session.provider);
    if (provider) await this.callProvider(provider, 'cancel', () => provider.cancel(session));
    const updated = await this.settlement.apply(session, { kind: 'fail', hintCode: 'cancelled' });
    if (!updated) throw new DomainException('session_not_pending', 'The session has already ended.');
    return this.view(updated);
  }

  /**
   * The RP's page got the person back with this nonce (docs/same-device.md): a match answers the poll
   * body and, once the session is complete, is accepted only once; wrong nonces are counted and the
   * third fails a pending session, since another browser is trying to finish it.
   */
  async confirmReturn(principal: ApiKeyPrincipal, sessionId: string, nonce: string): Promise<SessionView> {
    const session = await this.findForKey(principal, sessionId);
    const mismatch = (detail: string) => new DomainException('return_nonce_mismatch', detail);
    if (!session.returnNonceHash) throw mismatch('The session was started without a returnUrl.');
    if (session.returnedAt || session.returnNonceFailures >= RETURN_NONCE_ATTEMPTS) {
      throw mismatch('The return of this session was accepted already or is locked.');
    }
    if (!returnNonceMatches(nonce, session.returnNonceHash)) {
      const failures = await this.store.countReturnNonceFailure(session.id, RETURN_NONCE_ATTEMPTS);
      if (failures === RETURN_NONCE_ATTEMPTS && session.status === 'pending') await this.failForReturn(session);
      throw mismatch('The nonce does not match this session.');
    }
    const current = await this.settlement.collectIfDue(session);
    if (current.status === 'complete' && !(await this.store.markReturned(current.id, this.clock.now(), RETURN_NONCE_ATTEMPTS))) {
      throw mismatch('The return of this session was accepted already or is locked.');
    }
    return this.view(current);
  }

  private async failForReturn(session: Session): Promise<void> {
    const provider = this.providers.find(session.provider);
    // The order is withdrawn too, so the app cannot still complete it for whoever holds it.
    if (provider)
      await provider
        .cancel(session)
        .catch((error: unknown) => this.logger.warn({ provider: provider.name, err: describeProviderError(error) }, 'Cancel failed'));
    await this.settlement.apply(session, { kind: 'fail', hintCode: 'returnNonceMismatch' });
  }

  /** A pending session of the caller's team and environment, with what its QR is made from. */
  async pendingForQr(principal: ApiKeyPrincipal, sessionId: string): Promise<{ session: Session; qr: QrSource }> {
    const session = await this.findForKey(principal, sessionId);
    // A phone session never had a QR: the user is on a call, and the order is in their app already.
    if (session.channel === 'phone') throw new DomainException('qr_not_available', 'A phone session has no QR code.');
    const qr = session.status === 'pending' && this.clock.now() < session.expiresAt ? this.qrSources.of(session) : null;
    if (!qr) throw new DomainException('session_not_pending', 'The session is no longer waiting for a scan.');
    return { session, qr };
  }

  /** The raw evidence of a complete session (docs/evidence.md): 410 once purged with the personal data. */
  async evidence(principal: ApiKeyPrincipal, sessionId: string): Promise<StoredEvidence & { sessionId: string }> {
    const session = await this.findForKey(principal, sessionId);
    if (session.piiPurgedAt) throw new DomainException('evidence_purged', 'The evidence was erased with the personal data of the session.');
    if (!session.evidenceEnc)
      throw new DomainException('evidence_not_found', 'The session has no evidence: it did not complete, or its provider gave none.');
    return { sessionId: session.id, ...this.cipher.decryptJson<StoredEvidence>(session.evidenceEnc, evidenceAad(session.id)) };
  }

  private async findForKey(principal: ApiKeyPrincipal, sessionId: string): Promise<Session> {
    // Another team's or the other environment's session answers exactly like a missing one: no
    // enumeration, and a test key never reads a live identity nor a live key a simulated one (docs/security.md).
    const session = isUuid(sessionId) ? await this.store.findForKey(sessionId, principal.team.id, principal.apiKey.environment) : null;
    if (!session) throw new DomainException('session_not_found', 'No such session.');
    return session;
  }

  private view(session: Session): SessionView {
    const completion =
      session.status === 'complete' && session.completionEnc
        ? this.cipher.decryptJson<CompletedIdentity>(session.completionEnc, completionAad(session.id))
        : null;
    const evidence = session.evidenceEnc
      ? this.cipher.decryptJson<StoredEvidence>(session.evidenceEnc, evidenceAad(session.id))
      : undefined;
    return sessionView(session, completion, {
      ...(evidence ? { evidence: evidenceView(evidence) } : {}),
      ...(session.resultTokenEnc ? { resultToken: this.cipher.decrypt(session.resultTokenEnc, resultTokenAad(session.id)) } : {}),
    });
  }

  private async callProvider<T>(provider: EidProvider, operation: string, call: () => Promise<T>): Promise<T> {
    try {
      return await this.metrics.timeProviderCall(provider.name, operation, call);
    } catch (error) {
      if (error instanceof DomainException || error instanceof ValidationProblemException) throw error;
      this.logger.warn({ provider: provider.name, operation, err: describeProviderError(error) }, 'e-ID provider call failed');
      throw new DomainException('provider_unavailable', `The ${provider.name} provider did not answer; try again shortly.`);
    }
  }
}
