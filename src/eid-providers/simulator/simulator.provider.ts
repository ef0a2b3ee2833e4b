import { LOA3 } from '../shared/saml-authn-contexts.js';
import { createHmac, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { PendingRow } from '../../database/entity-insert.js';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { Clock } from '../../common/clock/clock.js';
import { constantTimeEqual, sha256 } from '../../common/crypto/constant-time.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { sessionsConfig, type SessionsConfig } from '../../config/sessions.config.js';
import { qrTimeAt } from '../../qr/qr-frame.js';
import type {
  CollectResult,
  CompletedIdentity,
  EidChannel,
  EidOperation,
  EidProvider,
  IdCardFace,
  OpenIdFace,
  RiskLevel,
  UserVisibleTransaction,
  OrderReference,
  StartOrderRequest,
  StartedOrder,
  EvidenceProfile,
} from '../eid-provider.js';
import { ANIMATED_QR, parseQrData, qrAuthCode } from '../shared/animated-qr.js';
import { RFA_USER_MESSAGES } from '../shared/rfa-user-messages.js';
import type { IssuedEvidence } from '../shared/xml-evidence/evidence-authority.js';
import { EvidenceVerifier } from '../shared/xml-evidence/evidence-verifier.js';
import { xmlEvidenceProfile } from '../shared/xml-evidence/xml-evidence.profile.js';
import { idCardEvidenceProfile, IdCardEvidenceVerifier } from '../shared/xml-evidence/idcard-evidence.profile.js';
import { SimulatorIdCards } from './simulator-idcards.js';
import { SimulatorEvidence } from './simulator-evidence.provider.js';
import { simulatorOrderStatus, type SimulatorTimings } from './simulator-order-state.js';
import type { NewSimulatorOrder, SimulatorOrder, SimulatorAction } from './simulator-order.entity.js';
import { simulatorConfig, type SimulatorConfig } from './simulator.config.js';
import { SimulatorOrderStore, type CollectedOrder } from './simulator-order.store.js';
import { evidenceAad, secretAad, textAad, textsAad, transactionAad, userAad } from './simulator-order-encryption.js';

// docs/api.md: a frame older or newer than this is refused, as the BankID app refuses a stale QR.
const QR_FRESHNESS_SECONDS = 3;

/** The simulator plays Swedish people only: a personal number always. */
type SimulatedUser = Required<Pick<CompletedIdentity['user'], 'personalNumber' | 'name' | 'givenName' | 'surname'>>;
export interface ScanInput {
  qrData?: string;
  autoStartToken?: string;
  action: SimulatorAction;
  user: SimulatedUser;
  /** The risk the simulated provider judges the order (default low), to play a key's maxRisk. */
  risk?: RiskLevel;
}

export interface PhoneAnswerInput {
  action: 'approve' | 'decline';
  /** The person called: their personalNumber finds the order. */
  user: SimulatedUser;
}

/** What the e-ID app shows once it has the order (docs/api.md, "Simulator"). */
export interface ShownOrder {
  operation: EidOperation;
  userVisibleData?: string;
  /** payment: what the person approves. */
  userVisibleTransaction?: UserVisibleTransaction;
}

/** The texts an order signs, base64 as BankID carries them in usrVisibleData / usrNonVisibleData. */
interface SignedTexts {
  userVisibleData?: string;
  userNonVisibleData?: string;
}

/** The rest of BankID's completionData evidence, as the simulator reports it. */
interface SimulatorEvidenceRecord extends IssuedEvidence {
  bankIdIssueDate: string;
  /** As chosen at the scan; records from before risk could be chosen have none and are low. */
  risk?: RiskLevel;
}

// BankID's stand-in on the OpenID front too: test clients only, as every simulator session (docs/oidc.md).
const SIMULATOR_OPENID: OpenIdFace = {
  displayName: 'Simulator',
  acrValues: [{ acr: 'urn:eidgw:simulator', device: 'either' }],
  amr: () => ['simulator'],
  ciba: { acr: 'urn:eidgw:simulator', channel: 'phone' },
  samlAuthnContexts: [LOA3],
};

/** A stand-in for BankID that follows its protocol: same order life cycle, hint codes and QR rule. */
@Injectable()
export class SimulatorProvider implements EidProvider {
  readonly name = 'simulator';
  // BankID's stand-in: BankID's QR rule and BankID's words (docs/api.md, "Simulator").
  readonly qr = ANIMATED_QR;
  readonly messages = RFA_USER_MESSAGES;
  /** Nobody scanned or opened the order in time (docs/same-device.md). */
  readonly renewsAfter = ['startFailed'];
  readonly evidence: EvidenceProfile;
  readonly openId = SIMULATOR_OPENID;
  readonly idCard: IdCardFace;
  private readonly timings: SimulatorTimings;
  private readonly personalNumberKey: Buffer;

  constructor(
    private readonly orders: SimulatorOrderStore,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    private readonly signer: SimulatorEvidence,
    verifier: EvidenceVerifier,
    idCardVerifier: IdCardEvidenceVerifier,
    idCards: SimulatorIdCards,
    @Inject(sessionsConfig.KEY) config: SessionsConfig,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
    @Inject(simulatorConfig.KEY) simulator: SimulatorConfig,
  ) {
    this.timings = { startTimeoutMs: simulator.startTimeoutMs, orderTtlMs: config.sessionTtlMs };
    this.personalNumberKey = cipher.deriveKey('simulator-personal-number');
    // Its CA is trusted for simulator sessions of the test environment only (docs/evidence.md).
    this.evidence = xmlEvidenceProfile(verifier, (environment) => (environment === 'test' ? signer.trustRoots : []));
    // Its ID cards (docs/idcard.md): both signatures from the same CA, trusted for test keys alone.
    this.idCard = {
      verify: (_environment, qrCode) => idCards.verify(qrCode),
      evidence: idCardEvidenceProfile(idCardVerifier, (environment) => (environment === 'test' ? signer.trustRoots : [])),
    };
  }

  supports(environment: ApiKeyEnvironment): boolean {
    // Simulated identities must never satisfy a live integration.
    return environment === 'test';
  }

  /** Like BankID: auth and sign on both channels, payment on the app channel. */
  offers(operation: EidOperation, channel: EidChannel): boolean {
    return operation !== 'payment' || channel === 'app';
  }

  async start(request: StartOrderRequest): Promise<StartedOrder> {
    const { order, started } = this.newOrder(request);
    await this.orders.insert(order);
    return started;
  }

  /** The order book's row written by the session's INSERT (docs/performance.md). */
  async startWithSession(request: StartOrderRequest): Promise<{ order: StartedOrder; row: PendingRow }> {
    const { order, started } = this.newOrder(request);
    return { order: started, row: this.orders.rowOf(order) };
  }

  /** An order's row in the order book and what its start answers. */
  private newOrder(request: StartOrderRequest): { order: NewSimulatorOrder; started: StartedOrder } {
    const orderRef = randomUUID();
    const phone = request.channel === 'phone';
    const qrStartSecret = phone ? null : randomUUID();
    const autoStartToken = phone ? null : randomUUID();
    // Encoded as the BankID client encodes it (docs/bankid.md), so the signature carries the same bytes.
    const texts: SignedTexts = {
      ...(request.userVisibleData === undefined
        ? {}
        : { userVisibleData: Buffer.from(request.userVisibleData, 'utf8').toString('base64') }),
      ...(request.userNonVisibleData === undefined ? {} : { userNonVisibleData: request.userNonVisibleData }),
    };
    const order: NewSimulatorOrder = {
      orderRef,
      operation: request.operation,
      channel: request.channel,
      endUserIp: request.endUserIp ?? null,
      qrStartToken: phone ? null : randomUUID(),
      qrStartSecretEnc: qrStartSecret ? this.cipher.encrypt(qrStartSecret, secretAad(orderRef)) : null,
      autoStartTokenHash: autoStartToken ? sha256(autoStartToken) : null,
      personalNumberHash: phone ? this.personalNumberHash(request.personalNumber!) : null,
      userVisibleDataEnc: request.userVisibleData ? this.cipher.encrypt(request.userVisibleData, textAad(orderRef)) : null,
      transactionEnc: request.userVisibleTransaction
        ? this.cipher.encryptJson(request.userVisibleTransaction, transactionAad(orderRef))
        : null,
      createdAt: this.clock.now(),
      scannedAt: null,
      action: null,
      userEnc: null,
      signedTextsEnc: Object.keys(texts).length ? this.cipher.encryptJson(texts, textsAad(orderRef)) : null,
      evidenceEnc: null,
      cancelledAt: null,
      returnUrl: request.returnUrl ?? null,
    };
    if (!order.qrStartToken || !qrStartSecret || !autoStartToken) return { order, started: { orderRef, orderTime: order.createdAt } };
    return {
      order,
      started: {
        orderRef,
        orderTime: order.createdAt,
        qr: { startToken: order.qrStartToken, startSecret: qrStartSecret },
        autoStartToken,
        // The simulated app is a page of this service, so a same-device flow runs with no phone (docs/same-device.md).
        launchUrl: `${this.server.publicBaseUrl}/simulator/app?autostarttoken=${autoStartToken}`,
      },
    };
  }

  async collect({ orderRef }: OrderReference): Promise<CollectResult> {
    return this.resultOf(await this.orders.getByRef(orderRef), this.clock.now());
  }

  async collectMany(references: OrderReference[]): Promise<Map<string, CollectResult>> {
    const now = this.clock.now();
    const found = await this.orders.findByRefs(references.map((r) => r.orderRef));
    return new Map(found.map((order) => [order.orderRef, this.resultOf(order, now)]));
  }

  async cancel({ orderRef }: OrderReference): Promise<void> {
    await this.orders.cancel(orderRef, this.clock.now());
  }

  async purgeOrdersCreatedBefore(createdBefore: Date): Promise<void> {
    await this.orders.deleteCreatedBefore(createdBefore);
  }

  async forgetCompletion({ orderRef }: OrderReference): Promise<void> {
    await this.orders.forgetCompletion(orderRef);
  }

  /**
   * Plays the end user's app: checks the frame (or autostart token) as BankID's app would, picks
   * the order up, and answers what the app shows.
   */
  async scan(input: ScanInput): Promise<ShownOrder> {
    const now = this.clock.now();
    const order = input.qrData ? await this.orderForFrame(input.qrData, now) : await this.orderForAutoStart(input.autoStartToken!);
    if (simulatorOrderStatus(order, now, this.timings).status !== 'pending' || order.scannedAt) {
      throw new DomainException('session_not_pending', 'The order is no longer waiting for the app.');
    }
    await this.pickUp(order, now, input.action, input.user, input.risk);
    return this.shown(order);
  }

  /**
   * Plays the user on a call with the RP answering in the app: the newest phone order waiting for
   * that person (404 order_not_found if none), confirmed and approved, or declined.
   */
  async answerPhone(input: PhoneAnswerInput): Promise<ShownOrder> {
    const now = this.clock.now();
    const waiting = await this.orders.findNewestWaitingPhoneOrder(this.personalNumberHash(input.user.personalNumber));
    const order = waiting && simulatorOrderStatus(waiting, now, this.timings).status === 'pending' ? waiting : null;
    if (!order) throw new DomainException('order_not_found', 'No phone order is waiting for that person.');
    await this.pickUp(order, now, input.action, input.user);
    return this.shown(order);
  }

  private async pickUp(
    order: SimulatorOrder,
    now: Date,
    action: SimulatorAction,
    user: SimulatedUser,
    risk: RiskLevel = 'low',
  ): Promise<void> {
    const claimed = await this.orders.claimScan(order.orderRef, {
      scannedAt: now,
      action,
      userEnc: this.cipher.encryptJson(user, userAad(order.orderRef)),
      evidenceEnc:
        action === 'approve'
          ? this.cipher.encryptJson({ ...(await this.issueEvidence(order, user, now)), risk }, evidenceAad(order.orderRef))
          : null,
    });
    // Two apps scanning the same frame at once: the first wins, as with BankID.
    if (!claimed) throw new DomainException('session_not_pending', 'The order is no longer waiting for the app.');
  }

  /** Signed once, on approval, like the user's signature in BankID's app: every collect returns the same evidence. */
  private async issueEvidence(order: SimulatorOrder, user: ScanInput['user'], now: Date): Promise<SimulatorEvidenceRecord> {
    const texts: SignedTexts = order.signedTextsEnc ? this.cipher.decryptJson(order.signedTextsEnc, textsAad(order.orderRef)) : {};
    // A payment is signed as a signature is: the person approves what the app shows.
    const funcId = order.operation === 'auth' ? 'Identification' : 'Signing';
    const issued = await this.signer.issue({ user, funcId, ...texts, now });
    return { bankIdIssueDate: now.toISOString().slice(0, 10), ...issued };
  }

  /** What the simulated app page needs to know about the order its autostart token opens (undefined: none). */
  async appOrder(autoStartToken: string): Promise<{ waiting: boolean; returnUrl: string | null; shown: ShownOrder } | undefined> {
    const order = await this.orders.findByAutoStartTokenHash(sha256(autoStartToken));
    if (!order) return undefined;
    const waiting = simulatorOrderStatus(order, this.clock.now(), this.timings).status === 'pending' && !order.scannedAt;
    return { waiting, returnUrl: order.returnUrl, shown: this.shown(order) };
  }

  private shown(order: SimulatorOrder): ShownOrder {
    const text = order.userVisibleDataEnc ? this.cipher.decrypt(order.userVisibleDataEnc, textAad(order.orderRef)) : undefined;
    const transaction = order.transactionEnc
      ? this.cipher.decryptJson<UserVisibleTransaction>(order.transactionEnc, transactionAad(order.orderRef))
      : undefined;
    return {
      operation: order.operation,
      ...(text === undefined ? {} : { userVisibleData: text }),
      ...(transaction ? { userVisibleTransaction: transaction } : {}),
    };
  }

  private personalNumberHash(personalNumber: string): Buffer {
    return createHmac('sha256', this.personalNumberKey).update(personalNumber).digest();
  }

  private resultOf(order: CollectedOrder, now: Date): CollectResult {
    const result = simulatorOrderStatus(order, now, this.timings);
    if (result.status !== 'complete' || !order.userEnc) return result;
    // BankID's completionData evidence: the risk chosen at the scan (low unless asked), no step-up.
    const evidence = order.evidenceEnc
      ? this.cipher.decryptJson<SimulatorEvidenceRecord>(order.evidenceEnc, evidenceAad(order.orderRef))
      : null;
    const risk = evidence?.risk ?? 'low';
    return {
      status: 'complete',
      completion: {
        user: this.cipher.decryptJson(order.userEnc, userAad(order.orderRef)),
        ...(order.endUserIp ? { device: { ipAddress: order.endUserIp } } : {}),
        ...(evidence ? { evidence: { ...evidence, risk }, risk } : {}),
      },
    };
  }

  private async orderForFrame(text: string, now: Date): Promise<SimulatorOrder> {
    const frame = parseQrData(text);
    const order = frame && (await this.orders.findByQrStartToken(frame.qrStartToken));
    if (!frame || !order?.qrStartSecretEnc) throw new DomainException('qr_invalid', 'The QR code is not a valid frame of any order.');
    const secret = this.cipher.decrypt(order.qrStartSecretEnc, secretAad(order.orderRef));
    if (!constantTimeEqual(qrAuthCode(secret, frame.qrTime), frame.qrAuthCode)) {
      throw new DomainException('qr_invalid', 'The QR code is not a valid frame of any order.');
    }
    if (Math.abs(qrTimeAt(order.createdAt, now) - frame.qrTime) > QR_FRESHNESS_SECONDS) {
      throw new DomainException('qr_expired', 'The QR code is too old; scan the current one.');
    }
    return order;
  }

  private async orderForAutoStart(token: string): Promise<SimulatorOrder> {
    // Looked up by hash: the token is a bearer capability, so it is not stored in the clear.
    const order = await this.orders.findByAutoStartTokenHash(sha256(token));
    if (!order) throw new DomainException('qr_invalid', 'The autostart token does not belong to any order.');
    return order;
  }
}
