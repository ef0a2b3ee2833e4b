import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { WebDevice } from '../../eid-providers/eid-provider.js';

// A random value per browser, kept by the browser only: the provider gets its hash as deviceIdentifier.
export const DEVICE_COOKIE = 'eidgw_device';
const DEVICE_VALUE = /^[A-Za-z0-9_-]{43}$/;
const ONE_YEAR_S = 365 * 24 * 3600;
// What the session routes take of a user agent (docs/api.md, "Device data"); the provider cuts to its own limit.
const USER_AGENT_INPUT_MAX = 2048;

/**
 * The login page's browser as device data for the provider's risk assessment (docs/oidc.md, "The login
 * page"): the service's own host, the browser's user agent, and a stable identifier from a cookie,
 * set here on a browser's first visit.
 */
export function loginDeviceOf(request: FastifyRequest, publicBaseUrl: string): { web: WebDevice; setCookie?: string } {
  const present = cookieValue(request.headers.cookie, DEVICE_COOKIE);
  const value = present && DEVICE_VALUE.test(present) ? present : randomBytes(32).toString('base64url');
  const userAgent = request.headers['user-agent']?.slice(0, USER_AGENT_INPUT_MAX);
  const secure = publicBaseUrl.startsWith('https:') ? '; Secure' : '';
  return {
    web: {
      referringDomain: new URL(publicBaseUrl).hostname,
      ...(userAgent ? { userAgent } : {}),
      deviceIdentifier: createHash('sha256').update(value).digest('hex'),
    },
    ...(value === present
      ? {}
      : { setCookie: `${DEVICE_COOKIE}=${value}; Path=/oidc/interaction; Max-Age=${ONE_YEAR_S}; HttpOnly; SameSite=Lax${secure}` }),
  };
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
