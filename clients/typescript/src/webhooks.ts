import { Webhook } from 'standardwebhooks';
import type { Environment } from './environment.js';
import { EidGatewayError } from './errors.js';
import { listAll } from './listing.js';
import { segment, type Transport } from './transport.js';
import type {
  CreateWebhookEndpointRequest,
  ListOptions,
  UpdateWebhookEndpointRequest,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEvent,
} from './types.js';

/** Headers as Node's http module, fetch's Headers or a plain object hold them. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

/**
 * Checks a delivery by the Standard Webhooks rule (docs/webhooks.md) with the `standardwebhooks` library:
 * the signature over `id.timestamp.body` with the endpoint's `whsec_…` secret (either secret during a
 * rotation), a timestamp within 5 minutes. Pass the body exactly as received, before any JSON parsing.
 */
export function verifyWebhook(headers: HeadersLike, body: string | Uint8Array, secret: string): WebhookEvent {
  const payload = typeof body === 'string' ? body : new TextDecoder().decode(body);
  try {
    return new Webhook(secret).verify(payload, plainHeaders(headers)) as WebhookEvent;
  } catch (error) {
    throw new EidGatewayError(`The webhook did not verify: ${(error as Error).message}`, {
      code: 'invalid_webhook_signature',
      cause: error,
    });
  }
}

function plainHeaders(headers: HeadersLike): Record<string, string> {
  const names = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];
  const read = (name: string) => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    return Array.isArray(value) ? value.join(' ') : value;
  };
  return Object.fromEntries(names.map((name) => [name, read(name) ?? '']));
}

/** The team's webhook endpoints of this environment (management API: needs accessToken and plan `pro`). */
export class WebhookEndpoints {
  readonly #transport: Transport;
  readonly #environment: Environment;

  constructor(transport: Transport, environment: Environment) {
    this.#transport = transport;
    this.#environment = environment;
  }

  async list(signal?: AbortSignal): Promise<WebhookEndpoint[]> {
    const { data } = await this.#transport.json<{ data: WebhookEndpoint[] }>({
      method: 'GET',
      path: '/api/v1/webhook-endpoints',
      auth: 'member',
      signal,
    });
    return data.filter((endpoint) => endpoint.environment === this.#environment);
  }

  /** Registers an endpoint for this environment's sessions; the answer's `secret` is shown this once. */
  create(body: Omit<CreateWebhookEndpointRequest, 'environment'>, signal?: AbortSignal): Promise<WebhookEndpointWithSecret> {
    const request: CreateWebhookEndpointRequest = { ...body, environment: this.#environment };
    return this.#transport.json({ method: 'POST', path: '/api/v1/webhook-endpoints', auth: 'member', body: request, signal });
  }

  update(id: string, body: UpdateWebhookEndpointRequest, signal?: AbortSignal): Promise<WebhookEndpoint> {
    return this.#transport.json({ method: 'PATCH', path: `/api/v1/webhook-endpoints/${segment(id)}`, auth: 'member', body, signal });
  }

  async delete(id: string, signal?: AbortSignal): Promise<void> {
    await this.#transport.send({ method: 'DELETE', path: `/api/v1/webhook-endpoints/${segment(id)}`, auth: 'member', signal });
  }

  /** A new secret; deliveries carry both signatures for 24 hours (docs/webhooks.md). */
  rotateSecret(id: string, signal?: AbortSignal): Promise<WebhookEndpointWithSecret> {
    return this.#transport.json({ method: 'POST', path: `/api/v1/webhook-endpoints/${segment(id)}/rotate-secret`, auth: 'member', signal });
  }
}

/** The delivery log of this environment and redelivery (management API: needs accessToken and plan `pro`). */
export class WebhookDeliveries {
  readonly #transport: Transport;
  readonly #environment: Environment;

  constructor(transport: Transport, environment: Environment) {
    this.#transport = transport;
    this.#environment = environment;
  }

  list(options: ListOptions = {}): AsyncGenerator<WebhookDelivery> {
    return listAll<WebhookDelivery>(this.#transport, '/api/v1/webhook-deliveries', this.#environment, options);
  }

  /** Sends the message again under the same `webhook-id`, so a receiver that saw it already can tell. */
  redeliver(id: string, signal?: AbortSignal): Promise<WebhookDelivery> {
    return this.#transport.json({ method: 'POST', path: `/api/v1/webhook-deliveries/${segment(id)}/redeliver`, auth: 'member', signal });
  }
}
