import { randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import { DataSource } from 'typeorm';
import type { E2eApp } from '../../support/e2e.js';
import { useBankIdFake } from '../../support/fake-rp-apis.js';
import { approveInSimulator, CookieBrowser, currentQr, finishLogin, startLogin } from '../../support/oidc-rp.js';
import { type OidcFront, useOidcFront } from '../../support/oidc-front.js';

// docs/security.md, "Review of the new fronts, round 4": the OpenID front's login page.

const SIMULATOR = 'urn:eidgw:simulator';
const BANKID_QR_ONLY = 'urn:grn:authn:se:bankid:another-device';

/** A client of the e2e team, registered by a member, and openid-client's configuration for it. */
const registerClient = async (front: OidcFront, body: Record<string, unknown> = {}) =>
  (await front.confidentialClient({ name: 'Login Page RP', ...body })).config;

const count = async (e2e: E2eApp, sql: string, params: unknown[]) => {
  const rows = await e2e.app.get(DataSource).query<{ n: string }[]>(sql, params);
  return Number(rows[0].n);
};

describe('OpenID Provider login page (openid-client as the relying party)', () => {
  const bankId = useBankIdFake({ now: () => new Date() });
  const front = useOidcFront({ env: () => ({ PROVIDERS: 'simulator,bankid', ...bankId.env('test'), BANKID_TIMEOUT: '5s' }) });
  const { e2e, redirectUri } = front;
  let config: client.Configuration;
  beforeAll(async () => {
    config = await registerClient(front);
  });

  const authorizationUrl = (params: Record<string, string> = {}) =>
    client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri(),
      scope: 'openid profile',
      state: client.randomState(),
      acr_values: SIMULATOR,
      ...params,
    });

  /** The choice page the authorization request leads to. */
  const choicePage = async (browser: CookieBrowser, url: URL) => {
    const landed = await browser.follow(url.href, e2e.baseUrl);
    expect(landed.url).toContain('/oidc/interaction/');
    return { url: landed.url, html: await landed.response!.text() };
  };

  /** The simulated app on the phone that opened the page's app link: approves and follows its return. */
  const approveOnPhone = async (phone: CookieBrowser, launchUrl: string) => {
    const app = await phone.get(launchUrl);
    expect(app.status).toBe(200);
    const autostarttoken = new URL(launchUrl).searchParams.get('autostarttoken')!;
    const back = await phone.get(`${e2e.baseUrl}/simulator/app`, {
      method: 'POST',
      body: new URLSearchParams({ autostarttoken, action: 'approve' }),
    });
    expect(back.status).toBe(303);
    const returnUrl = back.headers.get('location')!;
    expect(new URL(returnUrl).searchParams.get('eidgw_nonce')).toEqual(expect.any(String));
    return returnUrl;
  };

  const launchUrlOf = async (page: { sessionId: string; token: string }) =>
    fetch(`${e2e.baseUrl}/kiosk/${page.sessionId}/launch`, { headers: { authorization: `Kiosk ${page.token}` } });

  it('should start no e-ID order on page load, only on the person choosing a device (finding 4)', async () => {
    const sessionsOfTeam = () => count(e2e, 'SELECT count(*) AS n FROM sessions WHERE team_id = $1', [e2e.team.id]);
    const before = await sessionsOfTeam();
    const browser = new CookieBrowser();
    const { url, html } = await choicePage(browser, authorizationUrl());
    expect(html).toContain('name="device" value="this"');
    expect(html).toContain('name="device" value="other"');
    expect(html).not.toContain('<eid-qr');
    expect(await sessionsOfTeam()).toBe(before);
    // A reload starts nothing either.
    await browser.follow(url, e2e.baseUrl);
    expect(await sessionsOfTeam()).toBe(before);

    const page = await startLogin(browser, e2e.baseUrl, url);
    expect(await sessionsOfTeam()).toBe(before + 1);
    // A second tap finds the same login.
    const again = await startLogin(browser, e2e.baseUrl, url);
    expect(again.sessionId).toBe(page.sessionId);
    expect(await sessionsOfTeam()).toBe(before + 1);
  });

  it('should name the redirect URI host on the page, beside the client name (finding 21)', async () => {
    const shop = await registerClient(front, { redirectUris: ['https://shop.example/callback'] });
    const url = client.buildAuthorizationUrl(shop, { redirect_uri: 'https://shop.example/callback', scope: 'openid' });
    const { html } = await choicePage(new CookieBrowser(), url);
    expect(html).toContain('Login Page RP');
    expect(html).toContain('shop.example');
  });

  it('should give a QR login a token that shows the QR but not the app link, and a QR-only acr no app link at all (finding 2)', async () => {
    const browser = new CookieBrowser();
    const { url } = await choicePage(browser, authorizationUrl());
    const page = await startLogin(browser, e2e.baseUrl, url, 'other');
    expect(page.html).toContain('device="other"');
    expect((await launchUrlOf(page)).status).toBe(401);
    await expect(currentQr(e2e.baseUrl, page)).resolves.toMatch(/^bankid\./);

    const qrOnly = new CookieBrowser();
    const { url: qrOnlyUrl, html } = await choicePage(qrOnly, authorizationUrl({ acr_values: BANKID_QR_ONLY }));
    expect(html).not.toContain('value="this"');
    const refused = await qrOnly.get(`${e2e.baseUrl}/oidc/interaction/${/interaction\/([^/?#]+)/.exec(qrOnlyUrl)![1]}/start`, {
      method: 'POST',
      body: new URLSearchParams({ device: 'this' }),
    });
    expect(refused.status).toBe(400);
    const bankIdPage = await startLogin(qrOnly, e2e.baseUrl, qrOnlyUrl, 'other');
    expect((await launchUrlOf(bankIdPage)).status).toBe(401);
  });

  it('should give no code to a browser whose app link was opened on another phone, and finish in the browser the app returns to (finding 2)', async () => {
    // The attacker starts a login on this device and sends its app link to a victim.
    const attacker = new CookieBrowser();
    const { url } = await choicePage(attacker, authorizationUrl());
    const page = await startLogin(attacker, e2e.baseUrl, url, 'this');
    const { launchUrl } = (await (await launchUrlOf(page)).json()) as { launchUrl: string };
    const victim = new CookieBrowser();
    const returnUrl = await approveOnPhone(victim, launchUrl);
    // The victim's browser holds no interaction: it gets no code, and the nonce is not used up there.
    const landed = await victim.follow(returnUrl, e2e.baseUrl);
    expect(landed.response?.status).toBe(400);
    expect(await landed.response!.text()).toContain('startades i en annan webbläsare');
    const stolen = new URL((await finishLogin(attacker, e2e.baseUrl, page)).url);
    expect(stolen.searchParams.get('code')).toBeNull();
    expect(stolen.searchParams.get('error')).toBe('access_denied');
    expect(stolen.searchParams.get('error_description')).toContain('returnNonceMismatch');

    // The person's own phone: the app returns to the browser that started, which goes on.
    const person = new CookieBrowser();
    const { url: ownUrl } = await choicePage(person, authorizationUrl());
    const own = await startLogin(person, e2e.baseUrl, ownUrl, 'this');
    const { launchUrl: ownLaunch } = (await (await launchUrlOf(own)).json()) as { launchUrl: string };
    const ownReturn = await approveOnPhone(person, ownLaunch);
    await person.follow(ownReturn, e2e.baseUrl);
    const callback = new URL((await finishLogin(person, e2e.baseUrl, own)).url);
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));
  });

  it('should write one grant however often /done is requested (finding 12)', async () => {
    const browser = new CookieBrowser();
    const { url } = await choicePage(browser, authorizationUrl());
    const page = await startLogin(browser, e2e.baseUrl, url);
    await approveInSimulator(e2e.baseUrl, page);
    const grants = () => count(e2e, `SELECT count(*) AS n FROM oidc_models WHERE model = 'Grant'`, []);
    const before = await grants();
    const done = `${e2e.baseUrl}/oidc/interaction/${page.uid}/done`;
    // Until the collector has the completion, /done sends the browser back to the page.
    for (let tries = 0; (await browser.get(done)).headers.get('location')?.includes('/interaction/'); tries++) {
      if (tries > 60) throw new Error('The login did not complete');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    for (let i = 0; i < 3; i++) expect((await browser.get(done)).status).toBe(303);
    expect(await grants()).toBe(before + 1);
  });

  it("should refuse with access_denied naming it when the service's own evidence check failed (finding 11)", async () => {
    // The fake's user certificates chain to no configured BankID root: the evidence check fails.
    const browser = new CookieBrowser();
    const { url } = await choicePage(browser, authorizationUrl({ acr_values: BANKID_QR_ONLY }));
    const page = await startLogin(browser, e2e.baseUrl, url, 'other');
    bankId.fake.approve(bankId.fake.scanQr(await currentQr(e2e.baseUrl, page)));
    const callback = new URL((await finishLogin(browser, e2e.baseUrl, page, 30_000)).url);
    expect(callback.searchParams.get('code')).toBeNull();
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('error_description')).toContain('evidence');
  }, 60_000);

  it("should refuse a CIBA login too when the service's own evidence check failed", async () => {
    const ciba = await registerClient(front, { backchannelTokenDeliveryMode: 'poll' });
    const started = await client.initiateBackchannelAuthentication(ciba, {
      scope: 'openid',
      login_hint: '199001011239',
      acr_values: 'urn:grn:authn:se:bankid',
    });
    const answer = async () => {
      for (let tries = 0; tries < 50; tries++) {
        try {
          return bankId.fake.openPhoneOrder('199001011239');
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      throw new Error('No phone order reached the BankID fake');
    };
    const orderRef = await answer();
    bankId.fake.confirmCall(orderRef);
    bankId.fake.approve(orderRef);
    const refused = await client.pollBackchannelAuthenticationGrant(ciba, started, undefined, { signal: AbortSignal.timeout(30_000) }).then(
      () => undefined,
      (thrown: unknown) => thrown as client.ResponseBodyError,
    );
    expect(refused?.error).toBe('access_denied');
    expect(refused?.error_description).toContain('evidence');
  }, 60_000);

  it("should serve the logout and error pages under the login page's CSP, with no outside fonts (finding 18)", async () => {
    const expectOurPage = async (answer: Response) => {
      const csp = answer.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await answer.text();
      expect(html).not.toContain('googleapis');
      expect(html).not.toMatch(/<style|<script/);
      return html;
    };
    const error = await expectOurPage(await fetch(`${e2e.baseUrl}/oidc/auth?client_id=nobody&response_type=code&scope=openid`));
    expect(error).toContain('invalid_client');
    // Logged in, the logout question, then the success page (no post_logout_redirect_uri).
    const jar = new CookieBrowser();
    const { url } = await choicePage(jar, authorizationUrl());
    const page = await startLogin(jar, e2e.baseUrl, url);
    await approveInSimulator(e2e.baseUrl, page);
    await finishLogin(jar, e2e.baseUrl, page);
    const logout = await expectOurPage(await jar.get(`${e2e.baseUrl}/oidc/session/end`));
    expect(logout).toContain('id="op.logoutForm"');
    const secret = /name="xsrf" value="([^"]+)"/.exec(logout)![1];
    const confirmed = await jar.follow(`${e2e.baseUrl}/oidc/session/end/confirm`, e2e.baseUrl, {
      method: 'POST',
      body: new URLSearchParams({ xsrf: secret, logout: 'yes' }),
    });
    await expectOurPage(confirmed.response!);
  });
});

describe('OpenID Provider login page limits', () => {
  // A pro team: 60 logins a minute per client (docs/oidc.md, "Limits").
  const front = useOidcFront({
    freezeClock: true,
    env: { TRUST_PROXY: '127.0.0.1,::1', PUBLIC_ROUTE_LIMIT_PER_MINUTE: '12', LOGIN_START_LIMIT_PER_MINUTE: '2' },
  });
  const { e2e } = front;
  let config: client.Configuration;
  beforeAll(async () => {
    config = await registerClient(front);
  });
  const authorizationUrl = () =>
    client.buildAuthorizationUrl(config, { redirect_uri: `${e2e.baseUrl}/rp/callback`, scope: 'openid', state: client.randomState() });

  it('should hold one address to its per-minute starts and requests on /oidc and /upstream, not on the back channel (finding 4)', async () => {
    const browser = new CookieBrowser({ 'x-forwarded-for': '198.51.100.10' });
    const start = async () => {
      const landed = await browser.follow(authorizationUrl().href, e2e.baseUrl);
      const uid = /interaction\/([^/?#]+)/.exec(landed.url)![1];
      return browser.get(`${e2e.baseUrl}/oidc/interaction/${uid}/start`, {
        method: 'POST',
        body: new URLSearchParams({ device: 'other' }),
      });
    };
    expect((await start()).status).toBe(303);
    expect((await start()).status).toBe(303);
    const third = await start();
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toEqual(expect.any(String));
    // An upstream link starts an order too; nine requests plus this one so far.
    expect((await browser.get(`${e2e.baseUrl}/upstream/${randomUUID()}/go`)).status).toBe(429);
    // Two more of any browser route, then the address waits.
    for (let i = 0; i < 2; i++) expect((await browser.get(`${e2e.baseUrl}/oidc/session/end`)).status).not.toBe(429);
    expect((await browser.get(authorizationUrl().href)).status).toBe(429);
    // The back channel of an RP's server is not an anonymous browser route.
    const token = await browser.get(`${e2e.baseUrl}/oidc/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code' }),
    });
    expect(token.status).not.toBe(429);
    // Another address is not held back.
    expect((await new CookieBrowser({ 'x-forwarded-for': '198.51.100.11' }).get(authorizationUrl().href)).status).toBe(303);
  });

  it("should hold a client to its team plan's starts per minute, whatever the addresses (finding 4)", async () => {
    const fresh = await registerClient(front);
    const startFrom = async (address: string) => {
      const browser = new CookieBrowser({ 'x-forwarded-for': address });
      const url = client.buildAuthorizationUrl(fresh, { redirect_uri: `${e2e.baseUrl}/rp/callback`, scope: 'openid', state: 'x' });
      const landed = await browser.follow(url.href, e2e.baseUrl);
      const uid = /interaction\/([^/?#]+)/.exec(landed.url)![1];
      return browser.follow(`${e2e.baseUrl}/oidc/interaction/${uid}/start`, e2e.baseUrl, {
        method: 'POST',
        body: new URLSearchParams({ device: 'other' }),
      });
    };
    for (let i = 0; i < 60; i++) expect((await startFrom(`203.0.113.${i}`)).url).toContain('/oidc/interaction/');
    const refused = new URL((await startFrom('203.0.113.200')).url);
    expect(refused.searchParams.get('error')).toBe('temporarily_unavailable');
    e2e.clock.advance(60_000);
    expect((await startFrom('203.0.113.201')).url).toContain('/oidc/interaction/');
  }, 120_000);
});
