import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';

export const OIDC_PREFIX = '/oidc';

type RawRequest = IncomingMessage & { originalUrl?: string; body?: unknown };
type Listener = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

// Koa composes its middleware on each callback() call: once per provider instance, not per request.
const listeners = new WeakMap<Provider, Listener>();

function listenerOf(provider: Provider): Listener {
  let listener = listeners.get(provider);
  if (!listener) {
    listener = provider.callback();
    listeners.set(provider, listener);
  }
  return listener;
}

/**
 * Hands a request to oidc-provider as a plain Node listener (its docs, "Mounting oidc-provider"): the
 * reply is hijacked, the body Fastify already parsed is passed along, and the forwarded headers say
 * what PUBLIC_BASE_URL says, so every URL the provider writes starts with the issuer whatever proxy is
 * in front (docs/oidc.md, "Mounting").
 */
export async function handOver(provider: Provider, request: FastifyRequest, reply: FastifyReply, publicBaseUrl: string): Promise<void> {
  reply.hijack();
  const raw = request.raw as RawRequest;
  const base = new URL(publicBaseUrl);
  raw.originalUrl = request.url;
  raw.url = request.url.slice(OIDC_PREFIX.length) || '/';
  if (request.body !== undefined) raw.body = request.body;
  raw.headers['x-forwarded-proto'] = base.protocol.slice(0, -1);
  raw.headers['x-forwarded-host'] = base.host;
  // Koa reads the client address from here once it trusts the forwarded headers: Fastify's is the one TRUST_PROXY allows.
  raw.headers['x-forwarded-for'] = request.ip;
  await listenerOf(provider)(raw, reply.raw);
}
