import { LOA3 } from '../shared/saml-authn-contexts.js';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { Clock } from '../../common/clock/clock.js';
import {
  ProviderUnavailableError,
  type CollectResult,
  type EidProvider,
  type OpenIdFace,
  type OrderReference,
  type StartOrderRequest,
  type StartedOrder,
  type EvidenceProfile,
} from '../eid-provider.js';
import type { CertificateStatus, RpCertificateCheck } from '../rp-certificate.check.js';
import { FREJA_CERTIFICATE_CHECK } from './freja-certificate-check.js';
import { FrejaError } from './freja-client.js';
import { FrejaConnections, type FrejaConnection } from './freja-connections.js';
import { frejaEvidenceProfile } from './freja-evidence.js';
import { decideFrejaFailure, loggableMessage } from './freja-failures.js';
import { FrejaJwsRejected } from './freja-jws.js';
import { frejaStartOptionsOf } from './freja-start-options.dto.js';
import { completedResult, initAuthRequestBody, initSignRequestBody, STATUS_MAPPING } from './freja-order.js';
import { FREJA_ERROR_CODES } from './freja-rp-api.js';
import { FREJA_USER_MESSAGES } from './freja-user-messages.js';
import { frejaOrderRef, frejaQrData, parseFrejaOrderRef } from './freja-qr.js';

// Over CIBA Freja pushes the request to the app of the person named (docs/oidc.md, "CIBA").
const FREJA_OPENID: OpenIdFace = {
  displayName: 'Freja',
  acrValues: [{ acr: 'urn:grn:authn:se:frejaid', device: 'either' }],
  amr: () => ['freja'],
  ciba: { acr: 'urn:grn:authn:se:frejaid', channel: 'app' },
  samlAuthnContexts: [LOA3],
};

/** Freja eID through its RP API (authentication 1.0, signature 1.0) over mutual TLS (docs/freja.md). */
@Injectable()
export class FrejaProvider implements EidProvider {
  readonly name = 'freja';
  /** Freja's QR code is static: the app link for the transaction (docs/freja.md). */
  readonly qr = { kind: 'static', data: (orderRef: string) => frejaQrData(parseFrejaOrderRef(orderRef).reference) } as const;
  readonly messages = FREJA_USER_MESSAGES;
  readonly evidence: EvidenceProfile;
  readonly openId = FREJA_OPENID;
  private readonly logger = new Logger(FrejaProvider.name);

  constructor(
    private readonly connections: FrejaConnections,
    private readonly clock: Clock,
    @Inject(FREJA_CERTIFICATE_CHECK) private readonly certificates: RpCertificateCheck,
  ) {
    this.evidence = frejaEvidenceProfile((environment) => connections.get(environment)?.verifier, clock);
  }

  certificateStatuses(): CertificateStatus[] {
    return this.certificates.statuses();
  }

  /** An environment is served when it has an RP certificate and Freja's signing certificates (docs/freja.md). */
  supports(environment: ApiKeyEnvironment): boolean {
    return this.connections.get(environment) !== undefined;
  }

  /** Authentication and signature through the app (a QR code or the app link); Freja has no phone channel. */
  offers(operation: string, channel: string): boolean {
    return (operation === 'auth' || operation === 'sign') && channel === 'app';
  }

  async start(request: StartOrderRequest): Promise<StartedOrder> {
    const { operation } = request;
    // The registry refuses payment for Freja (offers); this keeps a direct call from slipping through.
    if (operation === 'payment' || operation === 'idcard') throw new Error(`Freja eID has no ${operation} operation`);
    const connection = this.connection(request.environment);
    const reference =
      operation === 'sign'
        ? await connection.client
            .initSignature(initSignRequestBody({ ...request, ...frejaStartOptionsOf(request.options) }))
            .catch((e: unknown) => this.fail(connection, 'initSignature', e))
        : await connection.client
            .initAuthentication(initAuthRequestBody({ ...request, ...frejaStartOptionsOf(request.options) }))
            .catch((e: unknown) => this.fail(connection, 'initAuthentication', e));
    // Freja's app link is the QR's content and opens the app on the same device too (docs/freja.md).
    return { orderRef: frejaOrderRef(operation, reference), orderTime: this.clock.now(), launchUrl: frejaQrData(reference) };
  }

  async collect({ environment, orderRef }: OrderReference): Promise<CollectResult> {
    const connection = this.connection(environment);
    const { operation, reference } = parseFrejaOrderRef(orderRef);
    let result;
    try {
      result = await connection.client.getOneResult(operation, reference);
    } catch (error) {
      // Freja forgets a transaction some time after it ends, and never knew a bad reference.
      if (error instanceof FrejaError && error.code === FREJA_ERROR_CODES.invalidReference) {
        this.logger.warn({ environment }, 'Freja no longer knows a pending transaction; it is reported as expired');
        return { status: 'failed', hintCode: 'expiredTransaction' };
      }
      return this.fail(connection, 'getOneResult', error);
    }
    if (result.status !== 'APPROVED') return STATUS_MAPPING[result.status];
    if (!result.details) return this.untrusted(connection, 'an APPROVED result without details');
    try {
      return completedResult(await connection.verifier.verify(result.details, operation, reference, this.clock.now()), result.details);
    } catch (error) {
      if (error instanceof FrejaJwsRejected) return this.untrusted(connection, error.message);
      throw error;
    }
  }

  async cancel({ environment, orderRef }: OrderReference): Promise<void> {
    const connection = this.connection(environment);
    const { operation, reference } = parseFrejaOrderRef(orderRef);
    try {
      await connection.client.cancel(operation, reference);
    } catch (error) {
      // Already over or forgotten at Freja: the transaction is over either way, which is what cancel wants.
      if (error instanceof FrejaError && error.code === FREJA_ERROR_CODES.invalidReference) return;
      this.fail(connection, 'cancel', error);
    }
  }

  /** A result whose signature does not hold is not the user's: the session fails (docs/freja.md). */
  private untrusted(connection: FrejaConnection, reason: string): CollectResult {
    this.logger.error({ environment: connection.environment, reason }, 'Freja result not believed: check FREJA_(TEST_)JWS_CERTS');
    return { status: 'failed', hintCode: 'providerError' };
  }

  private connection(environment: ApiKeyEnvironment): FrejaConnection {
    const connection = this.connections.get(environment);
    if (!connection) throw new ProviderUnavailableError(`Freja eID is not configured for ${environment} keys`);
    return connection;
  }

  private fail(connection: FrejaConnection, method: string, error: unknown): never {
    const { exception, level } = decideFrejaFailure(error);
    const fields =
      error instanceof FrejaError
        ? {
            kind: error.kind,
            code: error.code,
            httpStatus: error.detail.httpStatus,
            message: loggableMessage(error.detail.frejaMessage),
            cause: error.detail.cause,
          }
        : { kind: 'unexpected', type: (error as Error)?.name };
    const message =
      level === 'error'
        ? `Freja ${method} failed: check the RP certificate (${connection.certificateSource}), the CA, the URL and the agreement with Freja`
        : `Freja ${method} failed`;
    this.logger[level]({ environment: connection.environment, method, ...fields }, message);
    throw exception;
  }
}
