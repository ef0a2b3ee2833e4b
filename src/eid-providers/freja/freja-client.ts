import { request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { transportFailure } from '../transport-failure.js';
import {
  encodeFrejaRequest,
  errorResponseSchema,
  FREJA_METHODS,
  initAuthResponseSchema,
  initSignResponseSchema,
  REFERENCE_FIELD,
  resultResponseSchema,
  type FrejaMethod,
  type FrejaOperation,
  type FrejaResult,
  type InitAuthRequest,
  type InitSignRequest,
} from './freja-rp-api.js';

/**
 * api: Freja answered with an error (`{code, message}` on 400/422, or another HTTP status).
 * timeout, network, tls: no answer. protocol: an answer that is not what the RP API documents.
 */
export type FrejaFailureKind = 'api' | 'timeout' | 'network' | 'tls' | 'protocol';

export class FrejaError extends Error {
  override name = 'FrejaError';

  constructor(
    readonly kind: FrejaFailureKind,
    message: string,
    readonly detail: { code?: number; httpStatus?: number; frejaMessage?: string; cause?: string } = {},
  ) {
    super(message);
  }

  get code(): number | undefined {
    return this.detail.code;
  }
}

export interface FrejaClientOptions {
  /** e.g. https://services.test.frejaeid.com */
  baseUrl: string;
  /** Carries the mutual-TLS settings (an undici Agent). */
  dispatcher: Dispatcher;
  /** For each call, from sending the request to the end of the answer. */
  timeoutMs: number;
}

/**
 * A client of Freja eID's RP API (authentication 1.0, signature 1.0). No call is retried here:
 * getOneResult is asked again on the next collect, and a repeated init would start a second
 * transaction, which makes Freja cancel both (docs/freja.md).
 */
export class FrejaClient {
  private readonly baseUrl: string;

  constructor(private readonly options: FrejaClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  async initAuthentication(body: InitAuthRequest): Promise<string> {
    return (await this.call('auth', 'init', body, initAuthResponseSchema)).authRef;
  }

  async initSignature(body: InitSignRequest): Promise<string> {
    return (await this.call('sign', 'init', body, initSignResponseSchema)).signRef;
  }

  getOneResult(operation: FrejaOperation, reference: string): Promise<FrejaResult> {
    return this.call(operation, 'getOneResult', { [REFERENCE_FIELD[operation]]: reference }, resultResponseSchema(operation));
  }

  async cancel(operation: FrejaOperation, reference: string): Promise<void> {
    await this.call(operation, 'cancel', { [REFERENCE_FIELD[operation]]: reference }, null);
  }

  private async call<T>(operation: FrejaOperation, method: FrejaMethod, body: object, schema: z.ZodType<T> | null): Promise<T> {
    const { path, parameter } = FREJA_METHODS[operation][method];
    let statusCode: number;
    let text: string;
    try {
      const response = await request(`${this.baseUrl}${path}`, {
        dispatcher: this.options.dispatcher,
        method: 'POST',
        // Freja's own client labels the form body so; Freja reads the body as it is.
        headers: { 'content-type': 'application/json' },
        body: encodeFrejaRequest(parameter, body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      statusCode = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      const { kind, cause } = transportFailure(error);
      throw new FrejaError(kind, `Freja ${path}: ${kind} (${cause})`, { cause });
    }
    // cancel answers 200 with an empty object (or 204 without a body).
    if (schema === null && (statusCode === 200 || statusCode === 204)) return undefined as T;
    if (statusCode === 200 && schema) {
      const parsed = schema.safeParse(parseJson(text));
      if (!parsed.success) throw new FrejaError('protocol', `Freja ${path}: an answer that is not RP API 1.0`, { httpStatus: 200 });
      return parsed.data;
    }
    const error = errorResponseSchema.safeParse(parseJson(text));
    const code = error.success && (statusCode === 400 || statusCode === 422) ? error.data.code : undefined;
    return Promise.reject(
      new FrejaError('api', `Freja ${path}: ${code ?? 'no error code'} (HTTP ${statusCode})`, {
        code,
        httpStatus: statusCode,
        frejaMessage: code === undefined ? undefined : error.data?.message,
      }),
    );
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
