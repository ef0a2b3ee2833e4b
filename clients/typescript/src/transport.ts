import { EidGatewayError } from './errors.js';
import { VERSION } from './version.js';

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  accessToken: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  maxRetryDelayMs: number;
  fetch: typeof fetch;
}

export interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** Which credential the route takes: an API key (public API) or a team member's token (management API). */
  auth: 'apiKey' | 'member' | 'none';
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  accept?: string;
  signal?: AbortSignal;
}

export const USER_AGENT = `eid-gateway-client-typescript/${VERSION} node/${process.versions.node}`;
// Without Retry-After (a 503 of a proxy), the waits before the first and second retry.
const FALLBACK_DELAYS_MS = [500, 2_000];

/** fetch with the credential, a timeout on every attempt, problem details as EidGatewayError, and 429/503 retried. */
export class Transport {
  readonly #options: TransportOptions;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  async json<T>(call: Call): Promise<T> {
    const answer = await this.send({ ...call, accept: call.accept ?? 'application/json' });
    return (answer.status === 204 ? undefined : await answer.json()) as T;
  }

  async send(call: Call): Promise<Response> {
    const headers = this.#headers(call);
    const url = this.#url(call);
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    for (let attempt = 0; ; attempt++) {
      const answer = await this.#attempt(call, url, headers, body);
      if (answer.ok) return answer;
      const retryAfter = parseRetryAfter(answer.headers.get('retry-after'));
      const problem: unknown = await answer.json().catch(() => undefined);
      const delay = retryAfter === undefined ? FALLBACK_DELAYS_MS[attempt] : retryAfter * 1000;
      const retryable = (answer.status === 429 || answer.status === 503) && attempt < this.#options.maxRetries;
      if (!retryable || delay === undefined || delay > this.#options.maxRetryDelayMs) {
        throw EidGatewayError.fromAnswer(answer.status, problem, retryAfter);
      }
      await sleep(delay, call.signal);
    }
  }

  async #attempt(call: Call, url: string, headers: Headers, body: string | undefined): Promise<Response> {
    const timeout = AbortSignal.timeout(this.#options.timeoutMs);
    const { signal, release } = either(call.signal, timeout);
    try {
      return await this.#options.fetch(url, { method: call.method, headers, body, signal, redirect: 'error' });
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason;
      if (timeout.aborted) {
        throw new EidGatewayError(`${call.method} ${call.path} got no answer within ${this.#options.timeoutMs} ms`, { code: 'timeout' });
      }
      throw new EidGatewayError(`${call.method} ${call.path} failed: ${(error as Error).message}`, { code: 'network_error', cause: error });
    } finally {
      release();
    }
  }

  #headers(call: Call): Headers {
    const headers = new Headers({ 'user-agent': USER_AGENT, accept: call.accept ?? 'application/json' });
    if (call.body !== undefined) headers.set('content-type', 'application/json');
    if (call.auth === 'apiKey') headers.set('x-api-key', this.#options.apiKey);
    if (call.auth === 'member') {
      const token = this.#options.accessToken;
      if (!token) {
        throw new EidGatewayError(`${call.method} ${call.path} is a management route: pass accessToken (a team member's token)`, {
          code: 'access_token_required',
        });
      }
      headers.set('authorization', `Bearer ${token}`);
    }
    return headers;
  }

  #url(call: Call): string {
    const url = new URL(call.path, this.#options.baseUrl);
    for (const [name, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    return url.href;
  }
}

/** Retry-After as delta-seconds or an HTTP date (RFC 9110, 10.2.3), in whole seconds from now. */
function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The caller's signal or the timeout, whichever fires first (AbortSignal.any needs Node 20.3, the package promises 20). */
function either(caller: AbortSignal | undefined, timeout: AbortSignal): { signal: AbortSignal; release: () => void } {
  if (!caller) return { signal: timeout, release: () => undefined };
  const controller = new AbortController();
  const forward = (source: AbortSignal) => () => controller.abort(source.reason);
  const onCaller = forward(caller);
  const onTimeout = forward(timeout);
  if (caller.aborted) onCaller();
  caller.addEventListener('abort', onCaller, { once: true });
  timeout.addEventListener('abort', onTimeout, { once: true });
  const release = () => {
    caller.removeEventListener('abort', onCaller);
    timeout.removeEventListener('abort', onTimeout);
  };
  return { signal: controller.signal, release };
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Path segments come from callers (session ids, providers): encoded so they never change the route. */
export const segment = (value: string): string => encodeURIComponent(value);
