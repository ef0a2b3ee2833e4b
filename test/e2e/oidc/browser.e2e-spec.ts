import type { Browser } from 'playwright-core';
import * as client from 'openid-client';
import { describeInBrowser, launchChromium } from '../../support/browser.js';
import { useOidcFront } from '../../support/oidc-front.js';
import { approveInSimulator } from '../../support/oidc-rp.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describeInBrowser('OpenID Provider login page in a browser (headless Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  const { e2e, confidentialClient } = useOidcFront();
  const registerClient = async () => (await confidentialClient({ name: 'Browser RP' })).config;

  it('should show <eid-qr> under its CSP, follow the session to its end, and send the browser back with a code', async () => {
    const redirectUri = `${e2e.baseUrl}/rp/callback`;
    const config = await registerClient();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid profile', state, ui_locales: 'en' });

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    try {
      await page.goto(url.href);
      expect(await page.locator('.returns-to').textContent()).toContain(new URL(redirectUri).host);
      await page.locator('button[name="device"][value="other"]').click();
      // The element reached its stream: the QR is drawn.
      await page.waitForSelector('eid-qr[state="qr"]', { timeout: 15_000 });
      expect(await page.locator('h1').textContent()).toContain('Browser RP');
      const sessionId = (await page.locator('eid-qr').getAttribute('session'))!;
      const token = (await page.locator('eid-qr').getAttribute('token'))!;
      const uid = /\/oidc\/interaction\/([^/?#]+)/.exec(page.url())![1];
      await approveInSimulator(e2e.baseUrl, { uid, sessionId, token, html: '' });

      await page.waitForURL((current) => current.href.startsWith(redirectUri), { timeout: 20_000 });
      const callback = new URL(page.url());
      const tokens = await client.authorizationCodeGrant(config, callback, { expectedState: state });
      expect(tokens.claims()).toMatchObject({ given_name: 'Tess', acr: 'urn:eidgw:simulator' });
      expect(violations).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it("should give no code to a browser whose app link a victim's phone opened (same-device fixation, finding 2)", async () => {
    const redirectUri = `${e2e.baseUrl}/rp/callback`;
    const config = await registerClient();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid profile', state: client.randomState() });

    const attacker = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: IPHONE });
    try {
      await attacker.goto(url.href);
      // Where the page asks, the attacker chooses the app on "this device", to get its link.
      const thisDevice = attacker.locator('button[name="device"][value="this"]');
      if (await thisDevice.count()) await thisDevice.click();
      const qr = attacker.locator('eid-qr');
      await qr.waitFor({ state: 'attached', timeout: 15_000 });
      const sessionId = (await qr.getAttribute('session'))!;
      const token = (await qr.getAttribute('token'))!;
      const uid = /\/oidc\/interaction\/([^/?#]+)/.exec(attacker.url())![1];
      const launch = await fetch(`${e2e.baseUrl}/kiosk/${sessionId}/launch`, { headers: { authorization: `Kiosk ${token}` } });
      const { launchUrl } = (await launch.json()) as { launchUrl: string };

      // The victim opens the link on their phone and identifies in the (simulated) app, which returns to its browser.
      const victim = await phone.newPage();
      await victim.goto(launchUrl);
      await victim.locator('#approve').click();
      await victim.waitForURL((current) => current.pathname.startsWith('/oidc/interaction/'), { timeout: 15_000 });
      expect(await victim.content()).not.toContain('code=');

      // The attacker's page sees the session complete; it goes on by itself or the attacker asks for the end.
      await attacker.waitForFunction(
        () =>
          (globalThis as unknown as { location: { pathname: string } }).location.pathname.startsWith('/rp/') ||
          (globalThis as unknown as { document: { querySelector(s: string): { getAttribute(n: string): string | null } | null } }).document
            .querySelector('eid-qr')
            ?.getAttribute('state') === 'complete',
        undefined,
        { timeout: 20_000 },
      );
      if (!attacker.url().startsWith(redirectUri)) await attacker.goto(`${e2e.baseUrl}/oidc/interaction/${uid}/done`);
      await attacker.waitForURL((current) => current.href.startsWith(redirectUri), { timeout: 20_000 });
      const callback = new URL(attacker.url());
      expect(callback.searchParams.get('code')).toBeNull();
      expect(callback.searchParams.get('error')).toBe('access_denied');
    } finally {
      await attacker.close();
      await phone.close();
    }
  }, 60_000);
});
