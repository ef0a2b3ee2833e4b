import type { FastifyRequest } from 'fastify';
import { DomainException } from '../common/problem-details/domain.exception.js';

/**
 * The console's session cookie (docs/console.md). `__Host-`: the browser accepts it only with Secure,
 * Path=/ and no Domain, so no sibling host or plain-http page can plant or overwrite it.
 */
export const CONSOLE_COOKIE = '__Host-eidgw-console';

/**
 * The header the console sends with every call. A cross-site page can make a browser send the
 * cookie (were SameSite ever bypassed) but cannot add a custom header without a CORS preflight,
 * which this service never grants.
 */
export const CONSOLE_CSRF_HEADER = 'x-eidgw-console';

export function sessionCookie(token: string, maxAgeSeconds: number): string {
  return `${CONSOLE_COOKIE}=${token}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=Strict`;
}

export function clearedSessionCookie(): string {
  return `${CONSOLE_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Strict`;
}

/** The value of one cookie of a Cookie header, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) {
      const value = part.slice(separator + 1).trim();
      return value.length > 0 ? value : null;
    }
  }
  return null;
}

/** Refuses a console call that lacks the custom header (docs/console.md, CSRF). */
export function assertConsoleHeader(request: FastifyRequest): void {
  if (request.headers[CONSOLE_CSRF_HEADER] !== '1') {
    throw new DomainException('csrf_check_failed', `Console calls must carry the header ${CONSOLE_CSRF_HEADER}: 1.`);
  }
}

/** The member token of the console's cookie, only on a request that passes the CSRF check; else null. */
export function consoleSessionToken(request: FastifyRequest): string | null {
  const token = readCookie(request.headers.cookie, CONSOLE_COOKIE);
  if (!token) return null;
  assertConsoleHeader(request);
  return token;
}
