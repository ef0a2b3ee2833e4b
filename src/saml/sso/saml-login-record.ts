import { createHash, timingSafeEqual } from 'node:crypto';
import type { EidOperation } from '../../eid-providers/eid-provider.js';

/** What the front keeps of an accepted AuthnRequest between the browser's visits, encrypted (docs/saml.md, "State"). */
export interface SamlLogin {
  sessionId: string;
  kioskToken: string | null;
  provider: string;
  authnContext: string;
  operation: Extract<EidOperation, 'auth' | 'sign'>;
  acsUrl: string;
  requestId: string;
  relayState?: string;
  /** The hash of the browser's cookie: the login page, its end and its cancel answer that browser only. */
  browserHash: string;
  /**
   * An upstream that signs the person in at its own site: its callback must bring this browser back
   * with the session's return nonce before the SP is answered (docs/saml.md, "The login").
   */
  awaitsReturn?: true;
  /** That browser came back with the nonce. */
  returned?: true;
}

export const loginAad = (uid: string) => `saml_logins:${uid}:payload`;
export const LOGIN_COOKIE = 'eidgw_saml';
export const browserHashOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Whether the request carries the login's cookie. */
export function isLoginBrowser(cookieHeader: string | undefined, login: SamlLogin): boolean {
  for (const part of cookieHeader?.split(';') ?? []) {
    const at = part.indexOf('=');
    if (at <= 0 || part.slice(0, at).trim() !== LOGIN_COOKIE) continue;
    const hash = Buffer.from(browserHashOf(part.slice(at + 1).trim()), 'hex');
    const expected = Buffer.from(login.browserHash, 'hex');
    if (hash.length === expected.length && timingSafeEqual(hash, expected)) return true;
  }
  return false;
}

/** Scoped to the one login's path, so two logins in one browser keep their own. */
export const loginCookie = (uid: string, secret: string, secure: boolean, maxAgeSeconds: number): string =>
  `${LOGIN_COOKIE}=${secret}; Path=/saml/login/${uid}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
