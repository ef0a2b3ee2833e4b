import { LOA3 } from '../shared/saml-authn-contexts.js';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { Clock } from '../../common/clock/clock.js';
import {
  ProviderUnavailableError,
  type CollectResult,
  type EidChannel,
  type EidOperation,
  type EidProvider,
  type IdCardFace,
  type OpenIdFace,
  type VerifiedIdCard,
  type OrderReference,
  type StartOrderRequest,
  type StartedOrder,
  type EvidenceProfile,
} from '../eid-provider.js';
import type { CertificateStatus, RpCertificateCheck } from '../rp-certificate.check.js';
import { ANIMATED_QR } from '../shared/animated-qr.js';
import { BANKID_CERTIFICATE_CHECK } from './bankid-certificate-check.js';
import { EvidenceVerifier } from '../shared/xml-evidence/evidence-verifier.js';
import { xmlEvidenceProfile } from '../shared/xml-evidence/xml-evidence.profile.js';
import { idCardEvidenceProfile, IdCardEvidenceVerifier } from '../shared/xml-evidence/idcard-evidence.profile.js';
import { verifiedIdCardOf } from './bankid-idcard.js';
import { idCardCodeExpired } from '../shared/idcard-code-expired.js';
import { RFA_USER_MESSAGES } from '../shared/rfa-user-messages.js';
import { BankIdError } from './bankid-client.js';
import { readCollect } from './bankid-collect.js';
import type { CollectResponse } from './bankid-rp-api.js';
import { BankIdConnections, type BankIdConnection } from './bankid-connections.js';
import { BankIdEvidenceRoots } from './bankid-evidence-roots.js';
import { decideFailure, loggableDetails, type BankIdOperation } from './bankid-failures.js';
import { bankIdLaunchUrl } from './bankid-launch-url.js';
import { FAILED_HINT_CODES, orderRequest, PENDING_HINT_CODES } from './bankid-order.js';

const KNOWN_HINT_CODES = new Set<string>([...PENDING_HINT_CODES, ...FAILED_HINT_CODES]);
/** A complete answer without a usable user is collected this many times before the session fails (docs/bankid.md). */
export const UNUSABLE_COMPLETE_TRIES = 3;
// The acr names of the largest commercial broker, so a client migrates by changing its issuer (docs/oidc.md).
const BANKID_OPENID: OpenIdFace = {
  displayName: 'BankID',
  acrValues: [
    { acr: 'urn:grn:authn:se:bankid', device: 'either' },
    { acr: 'urn:grn:authn:se:bankid:same-device', device: 'same-device' },
    { acr: 'urn:grn:authn:se:bankid:another-device', device: 'qr' },
    { acr: 'urn:grn:authn:se:bankid:qr', device: 'qr' },
  ],
  amr: () => ['bankid'],
  // Over CIBA BankID calls the person: the phone channel (docs/oidc.md, "CIBA").
  ciba: { acr: 'urn:grn:authn:se:bankid', channel: 'phone' },
  personalNumberRequirement: true,
  samlAuthnContexts: [LOA3],
};
// Bounds the per-order counts: orders are short-lived, so an old count is simply forgotten.
const MAX_TRACKED_ORDERS = 10_000;

/** Swedish BankID through the RP API v6.0 over mutual TLS (docs/bankid.md). */
@Injectable()
export class BankIdProvider implements EidProvider {
  readonly name = 'bankid';
  readonly qr = ANIMATED_QR;
  readonly messages = RFA_USER_MESSAGES;
  /** Nobody scanned or opened the order in time (docs/same-device.md). */
  readonly renewsAfter = ['startFailed'];
  readonly evidence: EvidenceProfile;
  readonly openId = BANKID_OPENID;
  readonly idCard: IdCardFace;
  private readonly logger = new Logger(BankIdProvider.name);
  /** Unknown hint codes already reported: once per process is enough for the operator. */
  private readonly unknownHintCodes = new Set<string>();
  /** Per orderRef: how many complete answers without a usable user this process has collected. */
  private readonly unusableAnswers = new Map<string, number>();

  constructor(
    private readonly connections: BankIdConnections,
    private readonly clock: Clock,
    verifier: EvidenceVerifier,
    idCardVerifier: IdCardEvidenceVerifier,
    roots: BankIdEvidenceRoots,
    @Inject(BANKID_CERTIFICATE_CHECK) private readonly certificates: RpCertificateCheck,
  ) {
    // completionData's signature and OCSP response, checked against BANKID_(TEST_)EVIDENCE_ROOTS (docs/evidence.md).
    this.evidence = xmlEvidenceProfile(verifier, (environment) => roots.forEnvironment(environment));
    // The ID card's two signatures, against the same roots (docs/idcard.md).
    this.idCard = {
      verify: (environment, qrCode) => this.verifyIdCard(environment, qrCode),
      evidence: idCardEvidenceProfile(idCardVerifier, (environment) => roots.forEnvironment(environment)),
    };
  }

  certificateStatuses(): CertificateStatus[] {
    return this.certificates.statuses();
  }

  /** An environment is served when it has an RP certificate (docs/bankid.md). */
  supports(environment: ApiKeyEnvironment): boolean {
    return this.connections.get(environment) !== undefined;
  }

  /** Every operation of the RP API v6.0 on both channels, except payment, which BankID has on the app channel only. */
  offers(operation: EidOperation, channel: EidChannel): boolean {
    return operation !== 'payment' || channel === 'app';
  }

  async start(request: StartOrderRequest): Promise<StartedOrder> {
    const order = orderRequest(request);
    const connection = this.connection(request.environment);
    const fail = (error: unknown) => this.fail(connection, order.path, error);
    const { client } = connection;
    if (order.path === 'phone/auth' || order.path === 'phone/sign') {
      const started = await (order.path === 'phone/auth' ? client.phoneAuth(order.body) : client.phoneSign(order.body)).catch(fail);
      // A phone order has no QR and no autostart: BankID sends it to the user's app itself.
      return { orderRef: started.orderRef, orderTime: this.clock.now() };
    }
    const started = await (
      order.path === 'auth' ? client.auth(order.body) : order.path === 'sign' ? client.sign(order.body) : client.payment(order.body)
    ).catch(fail);
    return {
      orderRef: started.orderRef,
      // docs/bankid.md: the QR clock starts when BankID's answer to auth, sign or payment arrives.
      orderTime: this.clock.now(),
      qr: { startToken: started.qrStartToken, startSecret: started.qrStartSecret },
      autoStartToken: started.autoStartToken,
      launchUrl: bankIdLaunchUrl(started.autoStartToken),
    };
  }

  async collect({ environment, orderRef }: OrderReference): Promise<CollectResult> {
    const connection = this.connection(environment);
    let response: CollectResponse;
    try {
      response = await connection.client.collect(orderRef);
    } catch (error) {
      // BankID forgets an order 3 min after completion and 5 min after failure, and never knew a bad
      // reference: for a session still pending here the order is over, without a result to give.
      if (error instanceof BankIdError && error.errorCode === 'invalidParameters') {
        this.logger.warn({ environment }, 'BankID no longer knows a pending order; it is reported as expired');
        return { status: 'failed', hintCode: 'expiredTransaction' };
      }
      return this.fail(connection, 'collect', error);
    }
    const reading = readCollect(response);
    if (reading.kind === 'unusable') return this.unusableAnswer(environment, orderRef, reading.problems);
    this.unusableAnswers.delete(orderRef);
    const { result, dropped } = reading;
    // Only field names are logged: the values may be personal data.
    if (dropped.length)
      this.logger.warn({ environment, fields: dropped }, 'BankID collect: optional fields in an undocumented shape were dropped');
    if (result.hintCode && !KNOWN_HINT_CODES.has(result.hintCode) && !this.unknownHintCodes.has(result.hintCode)) {
      this.unknownHintCodes.add(result.hintCode);
      this.logger.warn({ environment, hintCode: result.hintCode }, 'BankID sent a hint code this version does not know; passed through');
    }
    return result;
  }

  async cancel({ environment, orderRef }: OrderReference): Promise<void> {
    const connection = this.connection(environment);
    try {
      await connection.client.cancel(orderRef);
    } catch (error) {
      // Already finished or forgotten at BankID: the order is over either way, which is what cancel wants.
      if (error instanceof BankIdError && error.errorCode === 'invalidParameters') return;
      this.fail(connection, 'cancel', error);
    }
  }

  /** One call to the ID card API; BankID's refusal of the code itself (invalidParameters) is an expired or used QR (docs/idcard.md). */
  private async verifyIdCard(environment: ApiKeyEnvironment, qrCode: string): Promise<VerifiedIdCard> {
    const connection = this.connection(environment);
    try {
      return verifiedIdCardOf(await connection.client.verifyIdCard(qrCode));
    } catch (error) {
      if (error instanceof BankIdError && error.errorCode === 'invalidParameters') {
        this.logger.log({ environment, operation: 'idcard/verify' }, 'BankID refused an ID card code as expired or used');
        throw idCardCodeExpired();
      }
      return this.fail(connection, 'idcard/verify', error);
    }
  }

  /**
   * A complete answer whose user cannot be read: BankID keeps answering the same for minutes, so
   * after a few tries the session fails with providerError instead of staying pending until it
   * expires (docs/bankid.md, "Tolerant collect"). The log names what was wrong, never a value.
   */
  private unusableAnswer(environment: ApiKeyEnvironment, orderRef: string, problems: string[]): CollectResult {
    const tries = (this.unusableAnswers.get(orderRef) ?? 0) + 1;
    const fields = { environment, problems, tries, of: UNUSABLE_COMPLETE_TRIES };
    if (tries >= UNUSABLE_COMPLETE_TRIES) {
      this.unusableAnswers.delete(orderRef);
      this.logger.error(fields, 'BankID collect: a complete answer without a usable user; the session fails with providerError');
      return { status: 'failed', hintCode: 'providerError' };
    }
    if (this.unusableAnswers.size >= MAX_TRACKED_ORDERS) this.unusableAnswers.delete(this.unusableAnswers.keys().next().value!);
    this.unusableAnswers.set(orderRef, tries);
    this.logger.warn(fields, 'BankID collect: a complete answer without a usable user; collected again');
    throw new ProviderUnavailableError('BankID sent a complete answer without a usable user');
  }

  private connection(environment: ApiKeyEnvironment): BankIdConnection {
    const connection = this.connections.get(environment);
    if (!connection) throw new ProviderUnavailableError(`BankID is not configured for ${environment} keys`);
    return connection;
  }

  private fail(connection: BankIdConnection, operation: BankIdOperation, error: unknown): never {
    const { exception, level } = decideFailure(operation, error);
    const fields =
      error instanceof BankIdError
        ? {
            kind: error.kind,
            errorCode: error.errorCode,
            httpStatus: error.detail.httpStatus,
            details: loggableDetails(error.detail.bankIdDetails),
            cause: error.detail.cause,
          }
        : { kind: 'unexpected', type: (error as Error)?.name };
    const message =
      level === 'error'
        ? `BankID ${operation} failed: check the RP certificate (${connection.certificateSource}), the CA and the URL`
        : error instanceof BankIdError && error.kind === 'network'
          ? // Under TLS 1.3 a refused RP certificate looks exactly like this too.
            `BankID ${operation} failed: the connection failed or was closed; if it persists, check the RP certificate (${connection.certificateSource})`
          : `BankID ${operation} failed`;
    this.logger[level === 'info' ? 'log' : level]({ environment: connection.environment, operation, ...fields }, message);
    throw exception;
  }
}
