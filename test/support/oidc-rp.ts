// An OIDC relying party's side of a login, for the e2e tests of the OpenID Provider (docs/oidc.md):
// openid-client (panva) for everything a real RP does, and a plain fetch with a cookie jar playing the
// browser through the login page, with the simulator's app approving.
import { createServer } from 'node:net';
import * as client from 'openid-client';

/** A free loopback port: the app's PUBLIC_BASE_URL (the issuer) must name the address it listens on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The browser's cookies: every cookie is sent back on every request to the one origin (enough for a test). */
export class CookieBrowser {
  private readonly cookies = new Map<string, string>();

  /** `headers` go with every request (an X-Forwarded-For behind a trusted proxy). */
  constructor(private readonly headers: Record<string, string> = {}) {}

  async get(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers({ ...this.headers, ...Object.fromEntries(new Headers(init.headers)) });
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** Follows redirects on the service's origin; stops at the first address elsewhere (the RP's redirect URI) or a page. */
  async follow(url: string, origin: string, init: RequestInit = {}): Promise<{ url: string; response?: Response }> {
    let next = url;
    let first = init;
    for (let hops = 0; hops < 10; hops++) {
      if (!next.startsWith(origin) || next.startsWith(`${origin}/rp/`)) return { url: next };
      const response = await this.get(next, first);
      first = {};
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        next = new URL(location, next).href;
        continue;
      }
      return { url: next, response };
    }
    throw new Error('Too many redirects');
  }
}

export interface LoginPage {
  uid: string;
  sessionId: string;
  token: string;
  html: string;
}

export function readLoginPage(url: string, html: string): LoginPage {
  const uid = /\/oidc\/interaction\/([^/?#]+)/.exec(url)?.[1];
  const sessionId = /<eid-qr session="([^"]+)"/.exec(html)?.[1];
  const token = /<eid-qr session="[^"]+" token="([^"]*)"/.exec(html)?.[1];
  if (!uid || !sessionId || token === undefined) throw new Error(`Not a login page: ${url}`);
  return { uid, sessionId, token, html };
}

/**
 * The person's gesture on the page the authorization request led to: the device they choose starts
 * the e-ID session (docs/oidc.md, "The login page"), and the browser lands on the page showing it.
 */
export async function startLogin(
  browser: CookieBrowser,
  origin: string,
  choiceUrl: string,
  device: 'this' | 'other' = 'other',
): Promise<LoginPage> {
  const uid = /\/oidc\/interaction\/([^/?#]+)/.exec(choiceUrl)?.[1];
  if (!uid) throw new Error(`Not a login page: ${choiceUrl}`);
  const landed = await browser.follow(`${origin}/oidc/interaction/${uid}/start`, origin, {
    method: 'POST',
    body: new URLSearchParams({ device }),
  });
  if (!landed.response) throw new Error(`The start left the service: ${landed.url}`);
  return readLoginPage(landed.url, await landed.response.text());
}

/** The QR the page shows now: the first frame of the kiosk event stream its token reads. */
export async function currentQr(origin: string, page: LoginPage): Promise<string> {
  const abort = new AbortController();
  const response = await fetch(`${origin}/kiosk/${page.sessionId}/events`, {
    headers: { authorization: `Kiosk ${page.token}` },
    signal: abort.signal,
  });
  if (!response.ok || !response.body) throw new Error(`The page's stream refused: ${response.status}`);
  let buffer = '';
  try {
    for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      const frame = /event: frame\ndata: (\{[^\n]*\})/.exec(buffer);
      if (frame) return (JSON.parse(frame[1]) as { qrData: string }).qrData;
    }
  } finally {
    abort.abort();
  }
  throw new Error('The stream ended without a frame');
}

/** The end user's app on another device: the page's QR, scanned and approved in the simulator. */
export async function approveInSimulator(
  origin: string,
  page: LoginPage,
  user: { personalNumber?: string; action?: 'approve' | 'cancel'; risk?: 'low' | 'moderate' | 'high' } = {},
): Promise<void> {
  const scanned = await fetch(`${origin}/api/v1/simulator/scan`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      qrData: await currentQr(origin, page),
      personalNumber: user.personalNumber ?? '199001011239',
      action: user.action ?? 'approve',
      ...(user.risk ? { risk: user.risk } : {}),
    }),
  });
  if (scanned.status !== 200) throw new Error(`The simulator refused the scan: ${scanned.status} ${await scanned.text()}`);
}

/**
 * What login.js does once <eid-qr> shows the end: the interaction's /done, until the session has
 * ended (the collector needs a moment), then on to the client's redirect URI.
 */
export async function finishLogin(
  browser: CookieBrowser,
  origin: string,
  page: LoginPage,
  timeoutMs = 15_000,
): Promise<{ url: string; response?: Response }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await browser.follow(`${origin}/oidc/interaction/${page.uid}/done`, origin);
    if (!result.url.includes(`/oidc/interaction/${page.uid}`)) return result;
    if (Date.now() > deadline) throw new Error('The login did not finish');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Discovery as an RP over plain http (tests only). */
export function discover(
  issuer: string,
  clientId: string,
  metadata?: Partial<client.ClientMetadata> | string,
  auth?: client.ClientAuth,
): Promise<client.Configuration> {
  return client.discovery(new URL(issuer), clientId, metadata, auth, { execute: [client.allowInsecureRequests] });
}

/** The hidden fields of a form_post answer (what the browser would POST to the redirect URI). */
export function formPostFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields[match[1]] = match[2];
  return fields;
}
