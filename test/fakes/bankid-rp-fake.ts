import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { FakeBankIdEvidenceCa } from './bankid-evidence-ca.js';

/**
 * A fake BankID RP API v6.0 server: HTTPS that demands and verifies the RP's client certificate,
 * with BankID's order life cycle, hint codes, error codes and QR rules. It is an independent
 * peer: nothing here imports the service's code, so a mistake on one side is not copied to the other.
 * Tests play the end user's app and BankID's operators through its methods, not through HTTP.
 */

export interface FakeBankIdOptions {
  key: string;
  cert: string;
  /** The CA that issues RP certificates: the handshake refuses any other. */
  clientCa: string;
  /** Subject CNs of the RPs that have access; another RP certificate gets 401 unauthorized. */
  authorizedClients: string[];
  /** BankID's clock; tests pass theirs so one moved clock drives both sides. */
  now?: () => Date;
}

export interface FakeUser {
  personalNumber: string;
  name: string;
  givenName: string;
  surname: string;
}

export const FAKE_USER: FakeUser = { personalNumber: '199001012393', name: 'Test Testsson', givenName: 'Test', surname: 'Testsson' };

export interface RecordedRequest {
  path: string;
  contentType: string | undefined;
  body: unknown;
  clientCn: string | undefined;
}

/**
 * Fields a BankID-compatible server may send that the documentation does not promise: merged into
 * every collect answer (`collect`) and into completionData (`completionData`; an undefined value
 * removes a field), e.g. `{ completionData: { stepUp: false } }`.
 */
export interface CollectQuirks {
  collect?: Record<string, unknown>;
  completionData?: Record<string, unknown>;
}

/** One injected answer: an error body, a delay before the normal answer (for timeouts), or a 200 whose body is not the API's. */
export type Fault =
  | { path: Operation; times: number; status: number; errorCode: string; details?: string; headers?: Record<string, string> }
  | { path: Operation; times: number; delayMs: number }
  | { path: Operation; times: number; garbage: string };

type Operation = 'auth' | 'sign' | 'payment' | 'phone/auth' | 'phone/sign' | 'collect' | 'cancel' | 'verify';
const OPERATIONS: readonly string[] = ['auth', 'sign', 'payment', 'phone/auth', 'phone/sign', 'collect', 'cancel'];
// The digital ID card API is its own API beside the RP API, on the same mutual TLS.
const ID_CARD_PATH = '/rp/v1/verify';
// How long a shown card's code may be verified, once (docs/idcard.md: Norwegian BankID's published 30 s).
const ID_CARD_CODE_LIFETIME_MS = 30_000;

/** A digital ID card opened in the fake app: its code, whose it is and what its verification will carry. */
interface FakeIdCard {
  user: FakeUser;
  shownAt: number;
  orderRef: string;
  used: boolean;
  forged: boolean;
  authentication: Promise<{ signature: string; ocspResponse: string }>;
}

interface FakeOrder {
  orderRef: string;
  operation: 'auth' | 'sign' | 'payment';
  /** payment: what the app shows. */
  userVisibleTransaction?: Record<string, unknown>;
  channel: 'app' | 'phone';
  /** app channel only. */
  autoStartToken?: string;
  qrStartToken?: string;
  qrStartSecret?: string;
  endUserIp?: string;
  /** phone channel: the person BankID asks; on the app channel requirement.personalNumber restricts who may answer. */
  personalNumber?: string;
  callInitiator?: string;
  requirement: Record<string, unknown>;
  userVisibleData?: string;
  userNonVisibleData?: string;
  returnRisk: boolean;
  createdAt: number;
  pickedUpAt?: number;
  status: 'pending' | 'complete' | 'failed';
  hintCode?: string;
  endedAt?: number;
  user?: FakeUser;
  evidence?: Promise<{ signature: string; ocspResponse: string }>;
}

/** Why the fake app refused a QR frame or an action, as the real app would. */
export class FakeAppRefusal extends Error {
  constructor(readonly reason: 'qr_invalid' | 'qr_expired' | 'not_pending' | 'not_picked_up') {
    super(reason);
  }
}

// BankID's timings: an order nobody picks up fails after 30 s; the user has 3 minutes in all; a
// result stays collectable 3 min after completion and 5 min after failure, then the order is forgotten.
const START_WINDOW_MS = 30_000;
const ORDER_LIFETIME_MS = 180_000;
const KEEP_COMPLETE_MS = 180_000;
const KEEP_FAILED_MS = 300_000;
// A frame must be the current one: the app refuses an older one (the same bound as the simulator's).
const QR_TOLERANCE_SECONDS = 3;
const USER_VISIBLE_DATA_MAX = 1500;
const SIGN_USER_VISIBLE_DATA_MAX = 40_000;
const USER_NON_VISIBLE_DATA_MAX = 200_000;
const AUTH_FIELDS = new Set([
  'endUserIp',
  'requirement',
  'userVisibleData',
  'userNonVisibleData',
  'userVisibleDataFormat',
  'returnUrl',
  'returnRisk',
  'web',
  'app',
]);
const PAYMENT_FIELDS = new Set([...AUTH_FIELDS, 'userVisibleTransaction', 'riskFlags']);
const RISK_FLAGS = new Set([
  'newCard',
  'newCustomer',
  'newRecipient',
  'highRiskRecipient',
  'largeAmount',
  'foreignCurrency',
  'cryptoCurrencyPurchase',
  'moneyTransfer',
  'overseasTransaction',
  'recurringPayment',
  'suspiciousPaymentPattern',
  'other',
]);
// BankID answers 400 to a longer user agent (in-app browsers send longer ones).
const USER_AGENT_MAX = 256;
const PHONE_FIELDS = new Set([
  'personalNumber',
  'callInitiator',
  'requirement',
  'userVisibleData',
  'userNonVisibleData',
  'userVisibleDataFormat',
]);
const PHONE_REQUIREMENTS = new Set(['pinCode', 'certificatePolicies']);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const QR_DATA = /^bankid\.([0-9a-f-]{36})\.(\d+)\.([0-9a-f]{64})$/;

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    readonly details: string,
  ) {
    super(errorCode);
  }
}

const invalid = (details: string) => new ApiError(400, 'invalidParameters', details);

export class FakeBankIdServer {
  readonly requests: RecordedRequest[] = [];
  private readonly orders = new Map<string, FakeOrder>();
  private readonly idCards = new Map<string, FakeIdCard>();
  private faults: Fault[] = [];
  private quirks: CollectQuirks = {};
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly now: () => number;
  private brokenSignatures = false;

  private constructor(
    private readonly server: Server,
    private readonly options: FakeBankIdOptions,
    private readonly evidenceCa: FakeBankIdEvidenceCa,
  ) {
    this.now = () => (options.now ?? (() => new Date()))().getTime();
  }

  static async start(options: FakeBankIdOptions): Promise<FakeBankIdServer> {
    const server = createServer({
      key: options.key,
      cert: options.cert,
      ca: options.clientCa,
      requestCert: true,
      rejectUnauthorized: true,
    });
    const fake = new FakeBankIdServer(server, options, await FakeBankIdEvidenceCa.create());
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void fake.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}/rp/v6.0`;
  }

  /** The ID card API's verify endpoint, on the same server and TLS. */
  get idCardUrl(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}${ID_CARD_PATH}`;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
    await this.evidenceCa.remove();
  }

  /** The root of the fake's evidence PKI: what BANKID_EVIDENCE_ROOTS must name for its signatures to verify. */
  get evidenceRootPem(): string {
    return this.evidenceCa.rootPem;
  }

  /** From now on, completions carry an XML signature whose signed data was changed after signing. */
  sendBrokenSignatures(broken = true): void {
    this.brokenSignatures = broken;
  }

  /** From now on, collect answers carry these undocumented fields (see CollectQuirks). */
  sendQuirks(quirks: CollectQuirks): void {
    this.quirks = quirks;
  }

  /** The next `times` calls of `path` get this answer instead of the normal one. */
  injectFault(fault: Fault): void {
    this.faults.push({ ...fault });
  }

  /** Drops the faults not used up yet: the provider is back (answers already delayed stay delayed). */
  clearFaults(): void {
    this.faults = [];
  }

  requestsTo(path: Operation): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** What BankID knows of an order now (undefined once forgotten). */
  order(orderRef: string): Readonly<FakeOrder> | undefined {
    return this.current(orderRef);
  }

  // ---- the end user's BankID app ----

  /** Scans one frame of the animated QR: its HMAC must verify and its time must be the current one. */
  scanQr(qrData: string): string {
    const match = QR_DATA.exec(qrData);
    const order = match && [...this.orders.values()].find((o) => o.qrStartToken === match[1]);
    if (!match || !order?.qrStartSecret) throw new FakeAppRefusal('qr_invalid');
    const expected = createHmac('sha256', order.qrStartSecret).update(match[2]).digest();
    if (!timingSafeEqual(expected, Buffer.from(match[3], 'hex'))) throw new FakeAppRefusal('qr_invalid');
    this.refresh(order);
    const elapsed = Math.floor((this.now() - order.createdAt) / 1000);
    if (Math.abs(elapsed - Number(match[2])) > QR_TOLERANCE_SECONDS) throw new FakeAppRefusal('qr_expired');
    this.pickUp(order);
    return order.orderRef;
  }

  /** Opens the app on the same device with the autostart token. */
  openWithAutoStartToken(autoStartToken: string): string {
    const order = [...this.orders.values()].find((o) => o.autoStartToken !== undefined && o.autoStartToken === autoStartToken);
    if (!order) throw new FakeAppRefusal('qr_invalid');
    this.refresh(order);
    this.pickUp(order);
    return order.orderRef;
  }

  /** What the app shows for an order: its operation and its text, decoded. */
  shown(orderRef: string): { operation: 'auth' | 'sign' | 'payment'; userVisibleData?: string; userVisibleTransaction?: object } {
    const order = this.pending(orderRef);
    const text = order.userVisibleData === undefined ? undefined : Buffer.from(order.userVisibleData, 'base64').toString('utf8');
    return {
      operation: order.operation,
      ...(text === undefined ? {} : { userVisibleData: text }),
      ...(order.userVisibleTransaction ? { userVisibleTransaction: order.userVisibleTransaction } : {}),
    };
  }

  /**
   * The person on a call with the RP opens their app: the newest pending phone order for them
   * asks whether they are on a call with the RP (userCallConfirm).
   */
  openPhoneOrder(personalNumber: string): string {
    const order = [...this.orders.values()]
      .filter(
        (o) =>
          o.channel === 'phone' &&
          o.personalNumber === personalNumber &&
          this.refresh(o) &&
          o.status === 'pending' &&
          o.pickedUpAt === undefined,
      )
      .sort((a, b) => b.createdAt - a.createdAt)[0];
    if (!order) throw new FakeAppRefusal('not_pending');
    order.pickedUpAt = this.now();
    order.hintCode = 'userCallConfirm';
    return order.orderRef;
  }

  /** The user confirms the call: the app goes on to the PIN step (userSign). */
  confirmCall(orderRef: string): void {
    const order = this.pending(orderRef);
    if (order.hintCode !== 'userCallConfirm') throw new FakeAppRefusal('not_picked_up');
    order.hintCode = 'userSign';
  }

  /** The user answers that they are not on a call with the RP. */
  declineCall(orderRef: string): void {
    const order = this.pending(orderRef);
    if (order.hintCode !== 'userCallConfirm') throw new FakeAppRefusal('not_picked_up');
    this.endWith(order, 'userDeclinedCall');
  }

  /** Moves a picked-up order to another pending hint (noClient, started, userMrtd, userCallConfirm, …). */
  setHint(orderRef: string, hintCode: string): void {
    this.pending(orderRef).hintCode = hintCode;
  }

  /** The user identifies: the order completes with this identity. */
  approve(orderRef: string, user: FakeUser = FAKE_USER): void {
    const order = this.pending(orderRef);
    // On a call the user must confirm the call before the PIN step.
    if (order.pickedUpAt === undefined || order.hintCode === 'userCallConfirm') throw new FakeAppRefusal('not_picked_up');
    // BankID asked a named person on the phone channel: that is who answers.
    const who = order.personalNumber ? { ...user, personalNumber: order.personalNumber } : user;
    Object.assign(order, { status: 'complete', hintCode: undefined, endedAt: this.now(), user: who });
  }

  /** The user presses cancel in the app. */
  cancelInApp(orderRef: string): void {
    this.endWith(this.pending(orderRef), 'userCancel');
  }

  /** BankID ends the order with a failure hint (certificateErr, notSupportedByUserApp, …). */
  failOrder(orderRef: string, hintCode: string): void {
    this.endWith(this.pending(orderRef), hintCode);
  }

  /**
   * The holder identifies in the app and opens their digital ID card: the code its QR shows, good for
   * one verification within ID_CARD_CODE_LIFETIME_MS. `forged`: its verification's XAdES is altered after signing.
   */
  showIdCard(user: FakeUser = FAKE_USER, options: { forged?: boolean } = {}): string {
    const code = `BANKIDF.${randomUUID()}.${randomBytes(16).toString('hex')}`;
    this.idCards.set(code, {
      user,
      shownAt: this.now(),
      orderRef: randomUUID(),
      used: false,
      forged: options.forged ?? false,
      authentication: this.evidenceCa.evidence({ user, funcId: 'Identification' }),
    });
    return code;
  }

  // ---- the RP API ----

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url === ID_CARD_PATH ? 'verify' : (req.url ?? '').replace(/^\/rp\/v6\.0\//, '');
    const socket = req.socket as TLSSocket;
    const cn = socket.getPeerCertificate()?.subject?.CN;
    const clientCn = Array.isArray(cn) ? cn[0] : cn;
    const raw = await readBody(req);
    const body = parseJson(raw);
    this.requests.push({ path, contentType: req.headers['content-type'], body, clientCn });
    try {
      if (path !== 'verify' && (!req.url?.startsWith('/rp/v6.0/') || !OPERATIONS.includes(path)))
        throw new ApiError(404, 'notFound', 'No such endpoint.');
      if (req.method !== 'POST') throw new ApiError(405, 'methodNotAllowed', 'Only POST is allowed.');
      if (!clientCn || !this.options.authorizedClients.includes(clientCn))
        throw new ApiError(401, 'unauthorized', 'The RP does not have access to the service.');
      // BankID takes exactly application/json: even a charset parameter is refused.
      if (req.headers['content-type']?.toLowerCase() !== 'application/json')
        throw new ApiError(415, 'unsupportedMediaType', 'Content-Type must be application/json.');
      if (!isObject(body)) throw invalid('The body is not a JSON object.');
      const fault = this.takeFault(path as Operation);
      if (fault && 'delayMs' in fault) await this.delay(fault.delayMs);
      if (fault && 'garbage' in fault) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(fault.garbage);
        return;
      }
      if (fault && 'errorCode' in fault) {
        send(res, fault.status, { errorCode: fault.errorCode, details: fault.details ?? fault.errorCode }, fault.headers);
        return;
      }
      send(res, 200, await this.answer(path as Operation, body));
    } catch (error) {
      const known = error instanceof ApiError ? error : new ApiError(500, 'internalError', 'Internal technical error.');
      send(res, known.status, { errorCode: known.errorCode, details: known.details });
    }
  }

  private answer(path: Operation, body: Record<string, unknown>): object | Promise<object> {
    if (path === 'verify') return this.verifyIdCard(body);
    if (path === 'collect') return this.collect(body);
    if (path === 'cancel') return this.cancel(body);
    if (path === 'phone/auth' || path === 'phone/sign') return this.phoneStart(path === 'phone/sign' ? 'sign' : 'auth', body);
    return this.appStart(path, body);
  }

  /** auth, sign and payment: an order for whoever scans the QR or opens the autostart link. */
  private appStart(operation: 'auth' | 'sign' | 'payment', body: Record<string, unknown>) {
    const fields = operation === 'payment' ? PAYMENT_FIELDS : AUTH_FIELDS;
    for (const field of Object.keys(body)) if (!fields.has(field)) throw invalid(`Unknown parameter ${field}.`);
    const { endUserIp, requirement = {}, returnUrl, returnRisk = false } = body;
    checkDeviceData(body);
    const transaction = operation === 'payment' ? checkPayment(body) : undefined;
    if (typeof endUserIp !== 'string' || isIP(endUserIp) === 0) throw invalid('Invalid endUserIp.');
    const texts = checkTexts(operation, body);
    if (returnUrl !== undefined && (typeof returnUrl !== 'string' || returnUrl.length < 1 || returnUrl.length > 512))
      throw invalid('Invalid returnUrl.');
    if (typeof returnRisk !== 'boolean') throw invalid('Invalid returnRisk.');
    if (!isObject(requirement)) throw invalid('Invalid requirement.');
    checkRequirement(requirement);
    this.refuseSecondOrder(requirement.personalNumber);
    const order: FakeOrder = {
      orderRef: randomUUID(),
      operation,
      channel: 'app',
      autoStartToken: randomUUID(),
      qrStartToken: randomUUID(),
      qrStartSecret: randomUUID(),
      endUserIp,
      requirement,
      ...texts,
      ...(transaction ? { userVisibleTransaction: transaction } : {}),
      returnRisk,
      createdAt: this.now(),
      status: 'pending',
      hintCode: 'outstandingTransaction',
    };
    this.orders.set(order.orderRef, order);
    return {
      orderRef: order.orderRef,
      autoStartToken: order.autoStartToken,
      qrStartToken: order.qrStartToken,
      qrStartSecret: order.qrStartSecret,
    };
  }

  /** The ID card API: a shown card's code, once and in time, answers the holder, the verification and the holder's authentication. */
  private async verifyIdCard(body: Record<string, unknown>) {
    const { qrCode } = body;
    if (typeof qrCode !== 'string' || Object.keys(body).length !== 1) throw invalid('Invalid qrCode.');
    const card = this.idCards.get(qrCode);
    if (!card) throw invalid('Invalid qrCode.');
    if (card.used) throw invalid('The QR code has already been used.');
    if (this.now() >= card.shownAt + ID_CARD_CODE_LIFETIME_MS) throw invalid('The QR code has expired.');
    card.used = true;
    const verificationId = randomUUID();
    const verifiedAt = new Date(this.now()).toISOString();
    const authentication = await card.authentication;
    return {
      transactionType: 'ID-kort-validering',
      user: { ...card.user, age: ageOf(card.user.personalNumber, this.now()) },
      verification: {
        verificationId,
        verifiedAt,
        signature: this.evidenceCa.idCardVerification({
          verificationId,
          personalNumber: card.user.personalNumber,
          verifiedAt,
          forged: card.forged,
        }),
      },
      authentication: {
        identifiedAt: new Date(card.shownAt).toISOString(),
        orderRef: card.orderRef,
        signature: authentication.signature,
        ocspResponse: authentication.ocspResponse,
      },
    };
  }

  /** phone/auth and phone/sign: BankID sends the order to the named person's app; no QR, no autostart. */
  private phoneStart(operation: 'auth' | 'sign', body: Record<string, unknown>) {
    for (const field of Object.keys(body)) if (!PHONE_FIELDS.has(field)) throw invalid(`Unknown parameter ${field}.`);
    const { personalNumber, callInitiator, requirement = {} } = body;
    if (typeof personalNumber !== 'string' || !/^\d{12}$/.test(personalNumber)) throw invalid('Invalid personalNumber.');
    if (callInitiator !== 'user' && callInitiator !== 'RP') throw invalid('Invalid callInitiator.');
    const texts = checkTexts(operation, body);
    if (!isObject(requirement) || Object.keys(requirement).some((name) => !PHONE_REQUIREMENTS.has(name)))
      throw invalid('Invalid requirement.');
    checkRequirement(requirement);
    this.refuseSecondOrder(personalNumber);
    const order: FakeOrder = {
      orderRef: randomUUID(),
      operation,
      channel: 'phone',
      personalNumber,
      callInitiator,
      requirement,
      ...texts,
      returnRisk: false,
      createdAt: this.now(),
      status: 'pending',
      hintCode: 'outstandingTransaction',
    };
    this.orders.set(order.orderRef, order);
    return { orderRef: order.orderRef };
  }

  /** One order per person at a time: both the running and the new order are cancelled. */
  private refuseSecondOrder(personalNumber: unknown): void {
    if (typeof personalNumber !== 'string') return;
    const running = [...this.orders.values()].find(
      (o) => this.refresh(o) && o.status === 'pending' && (o.personalNumber ?? o.requirement.personalNumber) === personalNumber,
    );
    if (running) {
      this.endWith(running, 'cancelled');
      throw new ApiError(400, 'alreadyInProgress', 'An order for this person is already in progress.');
    }
  }

  private async collect(body: Record<string, unknown>) {
    const order = typeof body.orderRef === 'string' && Object.keys(body).length === 1 ? this.current(body.orderRef) : undefined;
    if (!order) throw invalid('No such order.');
    const extra = this.quirks.collect ?? {};
    if (order.status !== 'complete') return { orderRef: order.orderRef, status: order.status, hintCode: order.hintCode, ...extra };
    const completionData: Record<string, unknown> = { ...(await this.completionData(order)), ...this.quirks.completionData };
    for (const [field, value] of Object.entries(completionData)) if (value === undefined) delete completionData[field];
    return { orderRef: order.orderRef, status: 'complete', completionData, ...extra };
  }

  private cancel(body: Record<string, unknown>) {
    const order = typeof body.orderRef === 'string' ? this.current(body.orderRef) : undefined;
    // Cancelling a finished or unknown order is a parameter error, as at BankID.
    if (!order || order.status !== 'pending') throw invalid('No such order.');
    this.endWith(order, 'cancelled');
    return {};
  }

  private async completionData(order: FakeOrder) {
    // Signed once, when first collected: every later collect returns the same evidence, as at BankID.
    order.evidence ??= this.evidenceCa.evidence({
      user: order.user!,
      funcId: order.operation === 'auth' ? 'Identification' : 'Signing',
      userVisibleData: order.userVisibleData,
      userNonVisibleData: order.userNonVisibleData,
      brokenSignature: this.brokenSignatures,
    });
    const { signature, ocspResponse } = await order.evidence;
    return {
      user: order.user,
      // On a call BankID sees the user's phone, not an RP-given address.
      device: { ipAddress: order.endUserIp ?? '198.51.100.7', uhi: randomBytes(18).toString('base64url') },
      bankIdIssueDate: '2024-03-01',
      ...(order.requirement.mrtd === true ? { stepUp: { mrtd: true } } : {}),
      signature,
      ocspResponse,
      ...(order.returnRisk ? { risk: 'low' } : {}),
    };
  }

  // ---- order life cycle ----

  /** An order as it stands now: expiry applied, forgotten when past its keeping time. */
  private current(orderRef: string): FakeOrder | undefined {
    const order = this.orders.get(orderRef);
    if (!order || this.refresh(order)) return order;
    this.orders.delete(orderRef);
    return undefined;
  }

  /** Applies what time did to the order; false when BankID has forgotten it. */
  private refresh(order: FakeOrder): boolean {
    const now = this.now();
    // A phone order is in the named person's app already: only the order lifetime applies.
    if (
      order.status === 'pending' &&
      order.channel === 'app' &&
      order.pickedUpAt === undefined &&
      now >= order.createdAt + START_WINDOW_MS
    ) {
      this.endWith(order, 'startFailed', order.createdAt + START_WINDOW_MS);
    } else if (order.status === 'pending' && now >= order.createdAt + ORDER_LIFETIME_MS) {
      this.endWith(order, 'expiredTransaction', order.createdAt + ORDER_LIFETIME_MS);
    }
    if (order.endedAt === undefined) return true;
    return now < order.endedAt + (order.status === 'complete' ? KEEP_COMPLETE_MS : KEEP_FAILED_MS);
  }

  private pending(orderRef: string): FakeOrder {
    const order = this.current(orderRef);
    if (!order || order.status !== 'pending') throw new FakeAppRefusal('not_pending');
    return order;
  }

  private pickUp(order: FakeOrder): void {
    if (order.status !== 'pending' || order.pickedUpAt !== undefined) throw new FakeAppRefusal('not_pending');
    order.pickedUpAt = this.now();
    order.hintCode = order.requirement.mrtd === true ? 'userMrtd' : 'userSign';
  }

  private endWith(order: FakeOrder, hintCode: string, at = this.now()): void {
    Object.assign(order, { status: 'failed', hintCode, endedAt: at });
  }

  private takeFault(path: Operation): Fault | undefined {
    const fault = this.faults.find((f) => f.path === path && f.times > 0);
    if (fault) fault.times -= 1;
    this.faults = this.faults.filter((f) => f.times > 0);
    return fault;
  }

  private delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }
}

/** Whole years at `now` (UTC) of the holder born on the date a personal number (YYYYMMDD…) states. */
function ageOf(personalNumber: string, now: number): number {
  const today = new Date(now);
  const [year, month, day] = [Number(personalNumber.slice(0, 4)), Number(personalNumber.slice(4, 6)), Number(personalNumber.slice(6, 8))];
  const hadBirthday = today.getUTCMonth() + 1 > month || (today.getUTCMonth() + 1 === month && today.getUTCDate() >= day);
  return today.getUTCFullYear() - year - (hadBirthday ? 0 : 1);
}

/** web or app (not both), each a flat object of strings; web.userAgent at most 256 characters. */
function checkDeviceData(body: Record<string, unknown>): void {
  const { web, app } = body;
  if (web !== undefined && app !== undefined) throw invalid('Only one of web and app.');
  for (const device of [web, app]) {
    if (device === undefined) continue;
    if (!isObject(device) || Object.values(device).some((v) => typeof v !== 'string' || v.length < 1))
      throw invalid('Invalid device data.');
  }
  if (isObject(web) && typeof web.userAgent === 'string' && web.userAgent.length > USER_AGENT_MAX) throw invalid('Invalid userAgent.');
}

/** userVisibleTransaction (money for card only, comma decimals, ISO 4217 shape) and riskFlags, as BankID checks them. */
function checkPayment(body: Record<string, unknown>): Record<string, unknown> {
  const { userVisibleTransaction: t, riskFlags } = body;
  if (!isObject(t)) throw invalid('userVisibleTransaction is required.');
  if (t.transactionType !== 'card' && t.transactionType !== 'npa') throw invalid('Invalid transactionType.');
  if (!isObject(t.recipient) || typeof t.recipient.name !== 'string' || !t.recipient.name) throw invalid('Invalid recipient.');
  if (t.transactionType === 'npa' && t.money !== undefined) throw invalid('money is not allowed for npa.');
  if (t.transactionType === 'card') {
    const money = t.money;
    if (!isObject(money) || typeof money.amount !== 'string' || !/^\d+,\d{2}$/.test(money.amount)) throw invalid('Invalid money.');
    if (typeof money.currency !== 'string' || !/^[A-Z]{3}$/.test(money.currency)) throw invalid('Invalid currency.');
  }
  if (riskFlags !== undefined && (!Array.isArray(riskFlags) || riskFlags.some((flag) => !RISK_FLAGS.has(flag as string))))
    throw invalid('Invalid riskFlags.');
  return t;
}

/** userVisibleData (required to sign, longer for sign), its format, and userNonVisibleData, as BankID checks them. */
function checkTexts(
  operation: 'auth' | 'sign' | 'payment',
  body: Record<string, unknown>,
): { userVisibleData?: string; userNonVisibleData?: string } {
  const { userVisibleData, userVisibleDataFormat, userNonVisibleData } = body;
  const max = operation === 'sign' ? SIGN_USER_VISIBLE_DATA_MAX : USER_VISIBLE_DATA_MAX;
  if (operation === 'sign' && userVisibleData === undefined) throw invalid('userVisibleData is required.');
  if (userVisibleData !== undefined) {
    if (
      typeof userVisibleData !== 'string' ||
      !BASE64.test(userVisibleData) ||
      userVisibleData.length < 1 ||
      userVisibleData.length > max
    ) {
      throw invalid('Invalid userVisibleData.');
    }
  }
  if (
    userVisibleDataFormat !== undefined &&
    (userVisibleData === undefined || !['plaintext', 'simpleMarkdownV1'].includes(userVisibleDataFormat as string))
  ) {
    throw invalid('Invalid userVisibleDataFormat.');
  }
  if (userNonVisibleData !== undefined) {
    if (
      typeof userNonVisibleData !== 'string' ||
      !BASE64.test(userNonVisibleData) ||
      userNonVisibleData.length < 1 ||
      userNonVisibleData.length > USER_NON_VISIBLE_DATA_MAX
    ) {
      throw invalid('Invalid userNonVisibleData.');
    }
  }
  return { userVisibleData, userNonVisibleData };
}

function checkRequirement(requirement: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(requirement)) {
    const ok =
      name === 'pinCode' || name === 'mrtd'
        ? typeof value === 'boolean'
        : name === 'cardReader'
          ? value === 'class1' || value === 'class2'
          : name === 'certificatePolicies'
            ? Array.isArray(value) && value.every((p) => typeof p === 'string')
            : name === 'personalNumber'
              ? typeof value === 'string' && /^\d{12}$/.test(value)
              : false;
    if (!ok) throw invalid(`Invalid requirement ${name}.`);
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function send(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
