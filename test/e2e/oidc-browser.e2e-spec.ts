import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import * as client from 'openid-client';
import { TokensService } from '../../src/tokens/tokens.service.js';
import { UsersService } from '../../src/users/users.service.js';
import { describeInBrowser, launchChromium } from '../support/browser.js';
import { useE2eApp } from '../support/e2e.js';
import { approveInSimulator, discover, freePort } from '../support/oidc-rp.js';

describeInBrowser('OpenID Provider login page in a browser (headless Chromium)', () => {
  let browser: Browser;
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  const e2e = useE2eApp({
    listen: true,
    listenPort: () => port,
    env: () => ({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }),
    withKey: { plan: 'pro' },
  });

  it('should show <eid-qr> under its CSP, follow the session to its end, and send the browser back with a code', async () => {
    const user = await e2e.app.get(UsersService).create({ teamId: e2e.team.id, email: `member-${randomUUID()}@example.com` });
    const bearer = `Bearer ${(await e2e.app.get(TokensService).issue({ userId: user.id, teamId: e2e.team.id, clientId: 'test' })).token}`;
    const redirectUri = `${e2e.baseUrl}/rp/callback`;
    const registered = (
      await e2e.http
        .post('/api/v1/oidc-clients')
        .set('authorization', bearer)
        .send({ name: 'Browser RP', redirectUris: [redirectUri] })
        .expect(201)
    ).body as { clientId: string; clientSecret: string };
    const config = await discover(`${e2e.baseUrl}/oidc`, registered.clientId, registered.clientSecret);
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid profile', state, ui_locales: 'en' });

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    try {
      await page.goto(url.href);
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
});
