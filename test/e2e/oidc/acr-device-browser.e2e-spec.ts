import type { Browser, BrowserContext } from 'playwright-core';
import * as client from 'openid-client';
import { describeInBrowser, launchChromium } from '../../support/browser.js';
import { useBankIdFake } from '../../support/fake-rp-apis.js';
import { useOidcFront } from '../../support/oidc-front.js';

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** The acr's device is what the login page can show (docs/oidc.md, "acr values"), with BankID's web device data (docs/bankid.md). */
describeInBrowser('OpenID login: the acr decides the device, and BankID gets the browser as device data (headless Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  const bankId = useBankIdFake({ now: () => e2e.clock.now() });
  const { e2e, redirectUri, confidentialClient } = useOidcFront({
    env: () => ({ PROVIDERS: 'bankid', ...bankId.env(), BANKID_TEST_EVIDENCE_ROOTS: bankId.fake.evidenceRootPem }),
  });

  /** A relying party, and its authorization request for one acr. */
  const relyingParty = async () => {
    const { config } = await confidentialClient({ name: 'Device RP' });
    const state = client.randomState();
    return {
      url: (acr: string) =>
        client.buildAuthorizationUrl(config, { redirect_uri: redirectUri(), scope: 'openid profile', state, acr_values: acr }),
      tokens: async (callback: string) =>
        (await client.authorizationCodeGrant(config, new URL(callback), { expectedState: state })).claims()!,
    };
  };
  /** What the page's <eid-qr> reads with its kiosk token. */
  const screenOf = async (context: BrowserContext) => {
    const [page] = context.pages();
    const element = page.locator('eid-qr');
    const sessionId = (await element.getAttribute('session'))!;
    const token = (await element.getAttribute('token'))!;
    const kiosk = (path: string) => fetch(`${e2e.baseUrl}/kiosk/${sessionId}/${path}`, { headers: { authorization: `Kiosk ${token}` } });
    return { page, sessionId, kiosk };
  };
  /** The first frame event of the session's stream. */
  const firstFrame = async (response: Response): Promise<Record<string, unknown>> => {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`The stream ended without a frame: ${text}`);
        text += value;
        const frame = /event: frame\ndata: (.+)\n\n/.exec(text);
        if (frame) return JSON.parse(frame[1]) as Record<string, unknown>;
      }
    } finally {
      await reader.cancel();
    }
  };

  it('should give a QR-only acr no launch link, even on a phone, and send BankID the browser as web device data', async () => {
    const rp = await relyingParty();
    const context = await browser.newContext({ userAgent: PHONE, viewport: { width: 390, height: 844 }, hasTouch: true });
    try {
      const page = await context.newPage();
      await page.goto(rp.url('urn:grn:authn:se:bankid:another-device').href);
      // A QR-only acr offers one choice: the app on another device.
      expect(await page.locator('button[name="device"]').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('value')))).toEqual([
        'other',
      ]);
      await page.click('button[name="device"][value="other"]');
      await page.waitForSelector('eid-qr[state="qr"]', { timeout: 15_000 });
      const { sessionId, kiosk } = await screenOf(context);
      // The page's token is a watch token: it never gives the app link (docs/oidc.md, "Same device").
      expect((await kiosk('launch')).status).toBe(401);
      expect(await page.locator('eid-qr').evaluate((node) => node.shadowRoot!.querySelector('#launch')!.hasAttribute('hidden'))).toBe(true);

      const order = bankId.fake.requestsTo('auth').at(-1)!.body as { web?: Record<string, string> };
      expect(order.web).toEqual({
        referringDomain: '127.0.0.1',
        userAgent: PHONE,
        deviceIdentifier: expect.stringMatching(/^[0-9a-f]{64}$/),
      });

      // The person scans the QR with another device: the login completes with the acr as asked.
      const { qrData } = (await e2e.http.get(`/api/v1/auth/${sessionId}/qr`).set('x-api-key', e2e.key).expect(200)).body;
      bankId.fake.approve(bankId.fake.scanQr(qrData));
      await page.waitForURL((at) => at.pathname === '/rp/callback', { timeout: 20_000 });
      expect(await rp.tokens(page.url())).toMatchObject({ acr: 'urn:grn:authn:se:bankid:another-device', amr: ['bankid'] });
    } finally {
      await context.close();
    }
  }, 60_000);

  it('should show a same-device acr the app link on a computer and never a QR, the same browser keeping its identifier', async () => {
    const rp = await relyingParty();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(rp.url('urn:grn:authn:se:bankid:same-device').href);
      expect(await page.locator('button[name="device"]').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('value')))).toEqual([
        'this',
      ]);
      await page.click('button[name="device"][value="this"]');
      await page.waitForSelector('eid-qr[state="launch"]', { timeout: 15_000 });
      const { sessionId, kiosk } = await screenOf(context);
      expect(await page.locator('eid-qr').evaluate((node) => node.shadowRoot!.querySelector('#qr')!.hasAttribute('hidden'))).toBe(true);
      const frame = await firstFrame(await kiosk('events'));
      expect(frame).toEqual({ qrTime: expect.any(Number) });
      expect((await e2e.http.get(`/api/v1/auth/${sessionId}/qr`).set('x-api-key', e2e.key)).status).toBe(409);
      const first = (bankId.fake.requestsTo('auth').at(-1)!.body as { web: { deviceIdentifier: string } }).web.deviceIdentifier;

      // The app opened on this device with the link the page shows.
      const { launchUrl } = (await (await kiosk('launch')).json()) as { launchUrl: string };
      bankId.fake.approve(bankId.fake.openWithAutoStartToken(new URL(launchUrl).searchParams.get('autostarttoken')!));
      // The app returns to this browser by the order's returnUrl, with the session's nonce (docs/same-device.md).
      const { returnUrl } = bankId.fake.requestsTo('auth').at(-1)!.body as { returnUrl: string };
      await page.goto(returnUrl);
      await page.waitForURL((at) => at.pathname === '/rp/callback', { timeout: 20_000 });
      expect(await rp.tokens(page.url())).toMatchObject({ acr: 'urn:grn:authn:se:bankid:same-device' });

      // A second login from the same browser: the same identifier, from its cookie.
      await page.goto(rp.url('urn:grn:authn:se:bankid').href);
      await page.click('button[name="device"][value="other"]');
      await page.waitForSelector('eid-qr[state="qr"]', { timeout: 15_000 });
      expect((bankId.fake.requestsTo('auth').at(-1)!.body as { web: { deviceIdentifier: string } }).web.deviceIdentifier).toBe(first);
    } finally {
      await context.close();
    }
  }, 60_000);
});
