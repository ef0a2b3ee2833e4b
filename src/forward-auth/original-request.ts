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
 * Which gateway asks (`FORWARD_AUTH_GATEWAY`, docs/forward-auth.md, "Which headers are read"), and so
 * which one family of headers names the original request: nginx sends X-Original-Method + -URI, Caddy
 * and Traefik X-Forwarded-Method + -Uri, Envoy's ext_authz the original path after /forward-auth.
 * `auto` takes whichever family arrives, and refuses when more than one does.
 */
export const FORWARD_AUTH_GATEWAYS = ['auto', 'nginx', 'caddy', 'traefik', 'envoy'] as const;
export type ForwardAuthGateway = (typeof FORWARD_AUTH_GATEWAYS)[number];

type Family = 'original' | 'forwarded' | 'path';

const FAMILY_OF: Record<Exclude<ForwardAuthGateway, 'auto'>, Family> = {
  nginx: 'original',
  caddy: 'forwarded',
  traefik: 'forwarded',
  envoy: 'path',
};

const FAMILY_HEADERS: Record<Family, string> = {
  original: 'X-Original-Method and X-Original-URI (nginx)',
  forwarded: 'X-Forwarded-Method and X-Forwarded-Uri (Caddy, Traefik)',
  path: 'the path after /forward-auth (Envoy)',
};

/** The families present in a request: a gateway sets its own, and must not pass on a client's copy of another. */
function familiesOf(request: FastifyRequest): Family[] {
  const present: Family[] = [];
  if (header(request, 'x-original-uri') || header(request, 'x-original-method')) present.push('original');
  if (header(request, 'x-forwarded-uri') || header(request, 'x-forwarded-method')) present.push('forwarded');
  if (request.url.startsWith(`${FORWARD_AUTH_PATH}/`)) present.push('path');
  return present;
}

/**
 * The request the gateway asks about, from the one family of headers `gateway` sends. More than one
 * family means a client wrote one of them (Caddy, for one, copies every client header into its
 * subrequest), so the decision cannot know which request it is about: 400, never a guess.
 */
export function readOriginalRequest(request: FastifyRequest, gateway: ForwardAuthGateway): OriginalRequest {
  const present = familiesOf(request);
  if (present.length > 1)
    throw new BadRequestException(
      `The request names its original request twice: ${present.map((family) => FAMILY_HEADERS[family]).join(', and ')}. The gateway must remove the client's copies of the headers it does not set itself (docs/forward-auth.md).`,
    );
  const expected = gateway === 'auto' ? undefined : FAMILY_OF[gateway];
  const family = present[0];
  if (!family || (expected && family !== expected)) {
    throw new BadRequestException(
      expected
        ? `The gateway did not say which request to decide: FORWARD_AUTH_GATEWAY is ${gateway}, which sends ${FAMILY_HEADERS[expected]}.`
        : 'The gateway did not say which request to decide: send X-Original-Method and X-Original-URI (nginx), X-Forwarded-Method and X-Forwarded-Uri (Caddy, Traefik), or the path after /forward-auth (Envoy).',
    );
  }
  let method: string;
  let uri: string | undefined;
  let host: string | undefined;
  if (family === 'original') {
    method = header(request, 'x-original-method') ?? request.method;
    uri = header(request, 'x-original-uri');
    host = header(request, 'x-forwarded-host');
  } else if (family === 'forwarded') {
    method = header(request, 'x-forwarded-method') ?? request.method;
    uri = header(request, 'x-forwarded-uri');
    host = header(request, 'x-forwarded-host');
  } else {
    method = request.method;
    uri = request.url.slice(FORWARD_AUTH_PATH.length);
    host = header(request, 'host');
  }
  method = method.toUpperCase();
  if (!/^[A-Z]{1,16}$/.test(method) || !uri?.startsWith('/')) {
    throw new BadRequestException('The original method must be an HTTP method and the original URI a path starting with /.');
  }
  const queryStart = uri.indexOf('?');
  return {
    method,
    uri,
    path: queryStart === -1 ? uri : uri.slice(0, queryStart),
    query: queryStart === -1 ? '' : uri.slice(queryStart + 1),
    host,
    nginx: family === 'original',
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
