// The contract's login through the OpenID front (docs/providers.md, "The OpenID face"): a relying party
// registered for the harness's team asks /oidc/auth for the provider's default acr, a cookie-keeping
// browser on the harness's own HTTP client goes through the login page, the provider's app (or site)
// approves, and the code is exchanged at the token endpoint; the id token is verified with jose.
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { randomBytes } from 'node:crypto';
import { EidProviderRegistry } from '../../src/eid-providers/eid-provider.registry.js';
import { OidcClientsService } from '../../src/oidc/clients/oidc-clients.service.js';
import { OidcLoginRecords } from '../../src/oidc/login/oidc-login-records.js';
import type { E2eApp } from './e2e.js';

const REDIRECT_URI = 'http://127.0.0.1/rp/callback';

/** A browser on the app's own origin: follows its redirects by path and keeps its cookies. */
class PathBrowser {
  private readonly cookies = new Map<string, string>();
  /** The last login page asked for, also when it sent the browser on to the provider. */
  interaction: string | undefined;

  constructor(private readonly e2e: E2eApp) {}

  /**
   * Follows redirects on the service; stops at the relying party, at a page, or at a link off /oidc (a
   * provider's). A form makes the first request a POST of it (the login page's choice of device).
   */
  async follow(start: string, form?: Record<string, string>, maxHops = 10): Promise<{ location: URL; status: number; text: string }> {
    let location = new URL(start, 'http://service.invalid');
    for (let hops = 0; hops < maxHops; hops++) {
      if (!location.pathname.startsWith('/oidc/')) return { location, status: 0, text: '' };
      this.interaction = /^\/oidc\/interaction\/([^/]+)$/.exec(location.pathname)?.[1] ?? this.interaction;
      const path = location.pathname + location.search;
      const request = form && hops === 0 ? this.e2e.http.post(path).type('form').send(form) : this.e2e.http.get(path);
      if (this.cookies.size) void request.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
      const response = await request;
      for (const line of (response.headers['set-cookie'] as unknown as string[] | undefined) ?? []) {
        const [pair] = line.split(';');
        const at = pair.indexOf('=');
        this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
      }
      if (response.status < 300 || response.status >= 400) return { location, status: response.status, text: response.text };
      location = new URL(response.headers.location, location);
    }
    if (maxHops < 10) return { location, status: 0, text: '' };
    throw new Error('Too many redirects');
  }
}

export interface ContractLogin {
  /** The session the login page started. */
  sessionId: string;
  /** The interaction's end once the session has: the code exchanged, the id token verified. */
  finish(): Promise<{ idToken: JWTPayload; expectedIssuer: string }>;
  /** This browser at the address an upstream's callback sends it to (the session's returnUrl with its nonce), going no further. */
  returnTo(url: string): Promise<void>;
}

/** Starts a login with the provider's default acr: the page's session, ready for the app to approve. */
export async function startContractLogin(e2e: E2eApp, provider: string): Promise<ContractLogin & { acr: string }> {
  const acr = e2e.app.get(EidProviderRegistry).profileOf(provider)?.openId?.acrValues[0]?.acr;
  if (!acr) throw new Error(`The provider ${provider} has no OpenID face`);
  const client = await e2e.app.get(OidcClientsService).create(e2e.team.id, { name: 'Contract RP', redirectUris: [REDIRECT_URI] });
  const browser = new PathBrowser(e2e);
  const state = randomBytes(16).toString('base64url');
  const query = new URLSearchParams({
    client_id: client.clientId,
    response_type: 'code',
    scope: 'openid',
    redirect_uri: REDIRECT_URI,
    state,
    acr_values: acr,
  });
  const choice = await browser.follow(`/oidc/auth?${query.toString()}`);
  const interaction = browser.interaction;
  if (!interaction) throw new Error(`No login page: ${choice.status} at ${choice.location.pathname}`);
  // The person's choice starts the session: the QR where the page offers it (the app approves
  // without coming back), else the one button (this device, or an upstream's own site).
  const device = choice.text.includes('name="device" value="other"') ? 'other' : 'this';
  const page = await browser.follow(`/oidc/interaction/${interaction}/start`, { device });
  const login = await e2e.app.get(OidcLoginRecords).findLogin(interaction);
  if (!login) throw new Error(`No login page session (${page.status} at ${page.location.pathname})`);

  const finish = async () => {
    const done = await browser.follow(`/oidc/interaction/${interaction}/done`);
    if (!done.location.pathname.startsWith('/rp/')) {
      throw new Error(`The login did not finish: ${done.status} at ${done.location.pathname}`);
    }
    expect(done.location.searchParams.get('state')).toBe(state);
    const code = done.location.searchParams.get('code');
    // An error answer says why (error_description) rather than only that no code came.
    if (!code) throw new Error(`No code: ${done.location.searchParams.get('error_description') ?? done.location.search}`);
    const tokens = await e2e.http
      .post('/oidc/token')
      .auth(client.clientId, client.clientSecret!)
      .type('form')
      .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI })
      .expect(200);
    const { issuer } = (await e2e.http.get('/oidc/.well-known/openid-configuration').expect(200)).body as { issuer: string };
    const jwks = createLocalJWKSet((await e2e.http.get('/oidc/jwks').expect(200)).body);
    const { payload } = await jwtVerify(tokens.body.id_token as string, jwks, { issuer, audience: client.clientId });
    return { idToken: payload, expectedIssuer: issuer };
  };
  return { acr, sessionId: login.sessionId, finish, returnTo: async (url) => void (await browser.follow(url, undefined, 1)) };
}
