import { BadRequestException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { isIP } from 'node:net';
import type { AddressList } from '../protection/ip-blocks/address-list.js';

/** The route itself; Envoy's ext_authz appends the original path to it (path_prefix). */
export const FORWARD_AUTH_PATH = '/forward-auth';

/** The request a gateway asks about (docs/forward-auth.md, "What each gateway sends"). */
export interface OriginalRequest {
  method: string;
  /** Path and query as the client sent them (raw: the input guard reads double encoding as sent). */
  uri: string;
  path: string;
  query: string;
  /** The host the client asked for, when the gateway says (X-Forwarded-Host, or Host through Envoy). */
  host: string | undefined;
  /** Whether the gateway is nginx, which needs refusals repeated in headers (docs/forward-auth.md). */
  nginx: boolean;
}

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

/**
 * nginx sends X-Original-Method + X-Original-URI; Caddy and Traefik X-Forwarded-Method, -Uri and -Host;
 * Envoy's ext_authz (HTTP) sends the original method on `/forward-auth` + the original path.
 */
export function readOriginalRequest(request: FastifyRequest): OriginalRequest {
  const nginxUri = header(request, 'x-original-uri');
  const forwardedUri = nginxUri ? undefined : header(request, 'x-forwarded-uri');
  let method: string;
  let uri: string;
  let host: string | undefined;
  if (nginxUri) {
    method = header(request, 'x-original-method') ?? request.method;
    uri = nginxUri;
    host = header(request, 'x-forwarded-host');
  } else if (forwardedUri) {
    method = header(request, 'x-forwarded-method') ?? request.method;
    uri = forwardedUri;
    host = header(request, 'x-forwarded-host');
  } else if (request.url.startsWith(`${FORWARD_AUTH_PATH}/`)) {
    method = request.method;
    uri = request.url.slice(FORWARD_AUTH_PATH.length);
    host = header(request, 'host');
  } else {
    throw new BadRequestException(
      'The gateway did not say which request to decide: send X-Original-Method and X-Original-URI (nginx), X-Forwarded-Method and X-Forwarded-Uri (Caddy, Traefik), or the path after /forward-auth (Envoy).',
    );
  }
  method = method.toUpperCase();
  if (!/^[A-Z]{1,16}$/.test(method) || !uri.startsWith('/')) {
    throw new BadRequestException('The original method must be an HTTP method and the original URI a path starting with /.');
  }
  const queryStart = uri.indexOf('?');
  return {
    method,
    uri,
    path: queryStart === -1 ? uri : uri.slice(0, queryStart),
    query: queryStart === -1 ? '' : uri.slice(queryStart + 1),
    host,
    nginx: nginxUri !== undefined,
  };
}

/**
 * The client's address: Fastify's `request.ip`, which reads X-Forwarded-For only through the proxies
 * of TRUST_PROXY (docs/protection.md); a trusted gateway that sends only X-Real-IP is believed too.
 */
export function clientIpOf(request: FastifyRequest, trustedProxies: AddressList): string {
  if (request.headers['x-forwarded-for'] !== undefined) return request.ip;
  const realIp = header(request, 'x-real-ip')?.trim();
  const peer = request.socket.remoteAddress;
  if (realIp && isIP(realIp) && peer && trustedProxies.includes(peer)) return realIp;
  return request.ip;
}

/** The value of the first `key` parameter of a raw query, as a query parser reads it (`?key=`, docs/api.md). */
export function queryKeyOf(query: string): string | undefined {
  if (!query) return undefined;
  for (const pair of query.split('&')) {
    const separator = pair.indexOf('=');
    if (separator === -1 || decoded(pair.slice(0, separator)) !== 'key') continue;
    return decoded(pair.slice(separator + 1));
  }
  return undefined;
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
