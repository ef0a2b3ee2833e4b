import { checkKeyEnvironment, type Environment } from './environment.js';
import { ResultTokenVerifier, type ResultClaims, type VerifyResultTokenOptions } from './result-token.js';
import { Sessions } from './sessions.js';
import { Transport, USER_AGENT } from './transport.js';
import { verifyWebhook, WebhookDeliveries, WebhookEndpoints, type HeadersLike } from './webhooks.js';
import type { WebhookEvent } from './types.js';

export interface EidGatewayOptions {
  /** An API key of `environment` (`eidk_test_…` or `eidk_live_…`); a key of the other one throws here. */
  apiKey: string;
  /** Which environment the key, the listings and new webhook endpoints belong to; test and live share one address. */
  environment: Environment;
  /** The service's address (default http://localhost:3000, the service's own default). */
  baseUrl?: string;
  /** A team member's token (the OTP login's, docs/otp-and-tokens.md) for the management routes: listings and webhooks. */
  accessToken?: string;
  /** The issuer of result tokens (the service's JWT_ISSUER, default its PUBLIC_BASE_URL); default baseUrl. */
  issuer?: string;
  /** Limit of each request attempt (default 10,000 ms). */
  timeoutMs?: number;
  /** Retries of a 429 or 503 answer, each after its Retry-After (default 2). */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown at once (default 60,000 ms). */
  maxRetryDelayMs?: number;
  /** Another fetch (a proxy's, an instrumented one); default the global fetch. */
  fetch?: typeof fetch;
}

/**
 * The eid-gateway client (docs/clients.md). It holds its key and token in private fields, so neither
 * appears in `console.log(gateway)`, an error's message or JSON.
 */
export class EidGateway {
  readonly environment: Environment;
  readonly baseUrl: string;
  readonly sessions: Sessions;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly webhookDeliveries: WebhookDeliveries;
  readonly #resultTokens: ResultTokenVerifier;

  constructor(options: EidGatewayOptions) {
    checkKeyEnvironment(options.apiKey, options.environment);
    this.environment = options.environment;
    this.baseUrl = (options.baseUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
    const timeoutMs = options.timeoutMs ?? 10_000;
    const transport = new Transport({
      baseUrl: this.baseUrl,
      apiKey: options.apiKey,
      accessToken: options.accessToken,
      timeoutMs,
      maxRetries: options.maxRetries ?? 2,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
      fetch: options.fetch ?? globalThis.fetch,
    });
    this.sessions = new Sessions(transport, this.environment);
    this.webhookEndpoints = new WebhookEndpoints(transport, this.environment);
    this.webhookDeliveries = new WebhookDeliveries(transport, this.environment);
    this.#resultTokens = new ResultTokenVerifier(
      new URL('/.well-known/jwks.json', this.baseUrl),
      options.issuer ?? this.baseUrl,
      this.environment,
      {
        timeoutMs,
        userAgent: USER_AGENT,
      },
    );
  }

  /** Verifies a session's result token (a poll's or a webhook's) against the service's JWKS, cached. */
  verifyResultToken(token: string, options?: VerifyResultTokenOptions): Promise<ResultClaims> {
    return this.#resultTokens.verify(token, options);
  }

  /** verifyWebhook, for callers who hold the client. */
  verifyWebhook(headers: HeadersLike, body: string | Uint8Array, secret: string): WebhookEvent {
    return verifyWebhook(headers, body, secret);
  }
}
