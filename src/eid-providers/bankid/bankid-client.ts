import { setTimeout as sleep } from 'node:timers/promises';
import { request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { transportFailure } from '../transport-failure.js';
import {
  canonicalErrorCode,
  cancelResponseSchema,
  collectResponseSchema,
  errorResponseSchema,
  idCardVerifyResponseSchema,
  orderResponseSchema,
  phoneOrderResponseSchema,
  type AuthRequest,
  type CollectResponse,
  type IdCardVerifyResponse,
  type OrderResponse,
  type PaymentRequest,
  PhoneAuthRequest,
  type PhoneOrderResponse,
  type PhoneSignRequest,
  type SignRequest,
} from './bankid-rp-api.js';

/**
 * api: BankID answered with an error code. timeout: no full answer in time. network: the
 * connection failed or dropped. tls: the handshake failed (certificate, CA). protocol: an answer
 * that is not what the RP API documents.
 */
export type BankIdFailureKind = 'api' | 'timeout' | 'network' | 'tls' | 'protocol';

export class BankIdError extends Error {
  override name = 'BankIdError';

  constructor(
    readonly kind: BankIdFailureKind,
    message: string,
    readonly detail: { errorCode?: string; httpStatus?: number; bankIdDetails?: string; retryAfterSeconds?: number; cause?: string } = {},
  ) {
    super(message);
  }

  get errorCode(): string | undefined {
    return this.detail.errorCode;
  }

  /** BankID: maintenance and internalError may be retried; so may a timeout or a dropped connection. */
  get retryable(): boolean {
    if (this.kind === 'timeout' || this.kind === 'network') return true;
    if (this.kind !== 'api') return false;
    if (this.errorCode === 'maintenance' || this.errorCode === 'internalError') return true;
    // A gateway error page in front of BankID, with no BankID error code.
    return this.errorCode === undefined && [502, 503, 504].includes(this.detail.httpStatus ?? 0);
  }
}

export interface BankIdClientOptions {
  /** e.g. https://appapi2.test.bankid.com/rp/v6.0 */
  baseUrl: string;
  /** The digital ID card API's verify endpoint, e.g. https://idcardapi.test.bankid.com/rp/v1/verify (docs/idcard.md). */
  idCardUrl?: string;
  /** Carries the mutual-TLS settings (an undici Agent). */
  dispatcher: Dispatcher;
  /** For each attempt, from sending the request to the end of the answer. */
  timeoutMs: number;
  /** One entry per retry: the wait before it (jittered down by up to half). */
  retryDelaysMs: readonly number[];
  random?: () => number;
}

/** A client of the BankID RP API v6.0: every call is a JSON POST, retried only where BankID says it is safe. */
export class BankIdClient {
  private readonly baseUrl: string;

  constructor(private readonly options: BankIdClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  auth(body: AuthRequest): Promise<OrderResponse> {
    return this.call('auth', body, orderResponseSchema);
  }

  sign(body: SignRequest): Promise<OrderResponse> {
    return this.call('sign', body, orderResponseSchema);
  }

  payment(body: PaymentRequest): Promise<OrderResponse> {
    return this.call('payment', body, orderResponseSchema);
  }

  phoneAuth(body: PhoneAuthRequest): Promise<PhoneOrderResponse> {
    return this.call('phone/auth', body, phoneOrderResponseSchema);
  }

  phoneSign(body: PhoneSignRequest): Promise<PhoneOrderResponse> {
    return this.call('phone/sign', body, phoneOrderResponseSchema);
  }

  collect(orderRef: string): Promise<CollectResponse> {
    return this.call('collect', { orderRef }, collectResponseSchema);
  }

  async cancel(orderRef: string): Promise<void> {
    await this.call('cancel', { orderRef }, cancelResponseSchema);
  }

  /**
   * One call, never retried: a card's QR is good for one verification, so a retry after an answer
   * lost on the way would only be refused as used (docs/idcard.md).
   */
  verifyIdCard(qrCode: string): Promise<IdCardVerifyResponse> {
    if (!this.options.idCardUrl) throw new Error('BankIdClient: no idCardUrl');
    return this.attempt(this.options.idCardUrl, 'verify', { qrCode }, idCardVerifyResponseSchema);
  }

  private async call<T>(path: string, body: object, schema: z.ZodType<T>): Promise<T> {
    const delays = this.options.retryDelaysMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(`${this.baseUrl}/${path}`, path, body, schema);
      } catch (error) {
        if (!(error instanceof BankIdError) || !error.retryable || attempt >= delays.length) throw error;
        await sleep(delays[attempt] * (0.5 + (this.options.random ?? Math.random)() / 2));
      }
    }
  }

  private async attempt<T>(url: string, path: string, body: object, schema: z.ZodType<T>): Promise<T> {
    let statusCode: number;
    let headers: Dispatcher.ResponseData['headers'];
    let text: string;
    try {
      const response = await request(url, {
        dispatcher: this.options.dispatcher,
        method: 'POST',
        // Exactly this: BankID answers 415 unsupportedMediaType to a charset parameter.
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      ({ statusCode, headers } = response);
      text = await response.body.text();
    } catch (error) {
      throw transportError(path, error);
    }
    if (statusCode === 200) {
      const parsed = schema.safeParse(parseJson(text));
      if (!parsed.success) throw new BankIdError('protocol', `BankID ${path}: an answer that is not RP API v6.0`, { httpStatus: 200 });
      return parsed.data;
    }
    throw apiError(path, statusCode, text, headers);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function apiError(path: string, httpStatus: number, text: string, headers: Dispatcher.ResponseData['headers']): BankIdError {
  const body = errorResponseSchema.safeParse(parseJson(text));
  const errorCode = body.success ? canonicalErrorCode(body.data.errorCode) : undefined;
  // 429 carries RateLimit-Reset: seconds until the window resets.
  const reset = Number(headers['ratelimit-reset']);
  return new BankIdError('api', `BankID ${path}: ${errorCode ?? 'no error code'} (HTTP ${httpStatus})`, {
    errorCode,
    httpStatus,
    bankIdDetails: body.success ? body.data.details : undefined,
    retryAfterSeconds: Number.isInteger(reset) && reset > 0 ? reset : undefined,
  });
}

function transportError(path: string, error: unknown): BankIdError {
  const { kind, cause } = transportFailure(error);
  return new BankIdError(kind, `BankID ${path}: ${kind} (${cause})`, { cause });
}
