import { Injectable, Logger } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { Clock } from '../../common/clock/clock.js';
import {
  ProviderUnavailableError,
  type CollectResult,
  type EidProvider,
  type OrderReference,
  type StartOrderRequest,
  type StartedOrder,
} from '../eid-provider.js';
import { BankIdError } from './bankid-client.js';
import { BankIdConnections, type BankIdConnection } from './bankid-connections.js';
import { decideFailure, loggableDetails, type BankIdOperation } from './bankid-failures.js';
import { bankIdLaunchUrl } from './bankid-launch-url.js';
import { authRequestBody, collectResult, FAILED_HINT_CODES, PENDING_HINT_CODES } from './bankid-order.js';

const KNOWN_HINT_CODES = new Set<string>([...PENDING_HINT_CODES, ...FAILED_HINT_CODES]);

/** Swedish BankID through the RP API v6.0 over mutual TLS (docs/bankid.md). */
@Injectable()
export class BankIdProvider implements EidProvider {
  readonly name = 'bankid';
  private readonly logger = new Logger(BankIdProvider.name);
  /** Unknown hint codes already reported: once per process is enough for the operator. */
  private readonly unknownHintCodes = new Set<string>();

  constructor(
    private readonly connections: BankIdConnections,
    private readonly clock: Clock,
  ) {}

  /** An environment is served when it has an RP certificate (docs/bankid.md). */
  supports(environment: ApiKeyEnvironment): boolean {
    return this.connections.get(environment) !== undefined;
  }

  async start(request: StartOrderRequest): Promise<StartedOrder> {
    const body = authRequestBody(request);
    const connection = this.connection(request.environment);
    const order = await connection.client.auth(body).catch((error: unknown) => this.fail(connection, 'auth', error));
    return {
      orderRef: order.orderRef,
      // docs/bankid.md: the QR clock starts when BankID's answer to auth arrives.
      orderTime: this.clock.now(),
      qr: { startToken: order.qrStartToken, startSecret: order.qrStartSecret },
      autoStartToken: order.autoStartToken,
      launchUrl: bankIdLaunchUrl(order.autoStartToken),
    };
  }

  async collect({ environment, orderRef }: OrderReference): Promise<CollectResult> {
    const connection = this.connection(environment);
    try {
      const result = collectResult(await connection.client.collect(orderRef));
      if (result.hintCode && !KNOWN_HINT_CODES.has(result.hintCode) && !this.unknownHintCodes.has(result.hintCode)) {
        this.unknownHintCodes.add(result.hintCode);
        this.logger.warn({ environment, hintCode: result.hintCode }, 'BankID sent a hint code this version does not know; passed through');
      }
      return result;
    } catch (error) {
      // BankID forgets an order 3 min after completion and 5 min after failure, and never knew a bad
      // reference: for a session still pending here the order is over, without a result to give.
      if (error instanceof BankIdError && error.errorCode === 'invalidParameters') {
        this.logger.warn({ environment }, 'BankID no longer knows a pending order; it is reported as expired');
        return { status: 'failed', hintCode: 'expiredTransaction' };
      }
      return this.fail(connection, 'collect', error);
    }
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
