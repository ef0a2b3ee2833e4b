import type { FastifyReply, FastifyRequest } from 'fastify';
import { OIDC_PREFIX } from './oidc-mount.js';

/** The RFC 6749 error a refusal before the provider stands for (the IP block, the input guard, a rate limit). */
export function oauthErrorFor(status: number): string {
  if (status === 401) return 'invalid_client';
  if (status === 403) return 'access_denied';
  if (status === 429 || status === 503) return 'temporarily_unavailable';
  if (status >= 500) return 'server_error';
  return 'invalid_request';
}

/**
 * An onSend hook: on /oidc, a problem-details body (from a check that ran before the provider) becomes
 * the RFC 6749 error shape OAuth clients parse. The provider's own answers are hijacked and never pass here.
 */
export function oauthErrorShape(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  const path = request.url;
  if (path !== OIDC_PREFIX && !path.startsWith(`${OIDC_PREFIX}/`)) return payload;
  if (!String(reply.getHeader('content-type') ?? '').startsWith('application/problem+json') || typeof payload !== 'string') return payload;
  let detail: string | undefined;
  try {
    detail = (JSON.parse(payload) as { detail?: string }).detail;
  } catch {
    detail = undefined;
  }
  reply.header('content-type', 'application/json; charset=utf-8');
  return JSON.stringify({ error: oauthErrorFor(reply.statusCode), ...(detail ? { error_description: detail } : {}) });
}
