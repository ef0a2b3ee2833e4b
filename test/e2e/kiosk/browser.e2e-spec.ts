import { createHmac } from 'node:crypto';
import { type Browser, type Page } from 'playwright-core';
import { RFA_USER_MESSAGES } from '../../../src/eid-providers/shared/rfa-user-messages.js';
import { KIOSK_TEXT } from '../../../src/kiosk/kiosk-page.js';
import { KioskStreamsService } from '../../../src/kiosk/kiosk-streams.service.js';
import { KioskTokenSigner } from '../../../src/kiosk-tokens/kiosk-token.js';
import { decodeQrPng } from '../../support/decode-qr.js';
import { describeInBrowser, keepScreenshot, launchChromium } from '../../support/browser.js';
import { useE2eApp } from '../../support/e2e.js';

// Set to a folder (e.g. docs) to keep screenshots of the page; the README's are made this way.
const SCREENSHOT_DIR = process.env.KIOSK_SCREENSHOT_DIR;
const QR_DATA = /^bankid\.([0-9a-f-]{36})\.(\d+)\.([0-9a-f]{64})$/;

describeInBrowser('Kiosk page in a browser (headless Chromium)', () => {
  // The browser closes before the app: its open connections would hold the app's close.
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  // The real clock: the page redraws on real seconds, and the background collector moves the session.
  const e2e = useE2eApp({ listen: true, withKey: true });

  const start = async () => {
    const body = (
      await e2e.http.post('/api/v1/auth/simulator/start').set('x-api-key', e2e.key).send({ endUserIp: '192.0.2.10' }).expect(200)
    ).body;
    const link = new URL(body.kioskUrl);
    return { ...body, path: `${link.pathname}${link.hash}` } as { sessionId: string; qrStartSecret: string; path: string };
  };

  /** The QR as the screen shows it: a screenshot of the canvas, decoded as a phone's camera would. */
  const readQr = async (page: Page) => decodeQrPng(await page.locator('#qr').screenshot());

  const expectValidFrame = (text: string | undefined, qrStartSecret: string) => {
    const [, , qrTime, code] = QR_DATA.exec(text ?? '') ?? [];
    expect(code).toBe(createHmac('sha256', qrStartSecret).update(qrTime).digest('hex'));
    return Number(qrTime);
  };

  const shoot = (page: Page, name: string) => keepScreenshot(page, SCREENSHOT_DIR, name, false);

  it('should redraw a valid QR every second, survive a dropped stream, and show the outcome after a scan', async () => {
    const { sessionId, qrStartSecret, path } = await start();
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 }, locale: 'sv-SE' });
    try {
      await page.goto(`${e2e.baseUrl}${path}`);
      await page.waitForSelector('main[data-state="qr"]');
      await expect(page.locator('#qr').getAttribute('aria-label')).resolves.toContain('QR-kod för BankID');
      // The simulator stands in for BankID: the heading names the session's app once the stream named its provider.
      await expect(page.locator('h1').textContent()).resolves.toBe('Legitimera dig med BankID');
      // The token has left the address bar and the history entry (docs/kiosk.md), and a reload keeps working.
      expect(page.url()).toBe(`${e2e.baseUrl}${path.split('#')[0]}`);

      const first = await readQr(page);
      const firstTime = expectValidFrame(first, qrStartSecret);
      // The next second's frame: wait for the page to draw it, then read the screen again.
      // A selector, not a function: the page's CSP forbids the eval that waitForFunction would need.
      await page.waitForSelector(`#qr:not([data-qr-time="${firstTime}"])`);
      const second = await readQr(page);
      const secondTime = expectValidFrame(second, qrStartSecret);
      expect(second).not.toBe(first);
      expect(secondTime).toBeGreaterThan(firstTime);
      expect(QR_DATA.exec(second!)![1]).toBe(QR_DATA.exec(first!)![1]);
      await shoot(page, 'kiosk-pending.png');

      // A blip: the server drops every stream (as a restarting replica or a proxy would); the page reconnects.
      e2e.app.get(KioskStreamsService).onModuleDestroy();
      await page.waitForSelector('main[data-stale]');
      await page.waitForSelector('main[data-state="qr"]:not([data-stale])', { timeout: 10_000 });
      const afterBlip = await readQr(page);
      expect(expectValidFrame(afterBlip, qrStartSecret)).toBeGreaterThan(secondTime);

      await e2e.http.post('/api/v1/simulator/scan').send({ qrData: afterBlip, givenName: 'Kim', surname: 'Kiosk' }).expect(200);
      await page.waitForSelector('main[data-state="complete"]', { timeout: 15_000 });
      await expect(page.locator('#qr').isHidden()).resolves.toBe(true);
      const message = await page.locator('#message').textContent();
      expect(message).toBe('Klart! Du är legitimerad.');
      // The screen never learns who signed in.
      expect(await page.content()).not.toContain('Kim');
      await shoot(page, 'kiosk-complete.png');

      const poll = await e2e.http.post(`/api/v1/auth/${sessionId}/poll`).set('x-api-key', e2e.key).expect(200);
      expect(poll.body.status).toBe('complete');
    } finally {
      await page.close();
    }
  });

  it('should speak English with ?lang=en, and the phone view should fit the QR on screen', async () => {
    const { qrStartSecret, path } = await start();
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    try {
      const [pathname, hash] = path.split('#');
      await page.goto(`${e2e.baseUrl}${pathname}?lang=en#${hash}`);
      await page.waitForSelector('main[data-state="qr"]');
      await expect(page.locator('#message').textContent()).resolves.toBe('Start the BankID app on your phone and scan the QR code.');
      expectValidFrame(await readQr(page), qrStartSecret);
      const box = (await page.locator('#qr').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      await shoot(page, 'kiosk-phone.png');
    } finally {
      await page.close();
    }
  });

  it('should speak Finnish with ?lang=fi: the heading a whole sentence with the app, the element its own words', async () => {
    const { path } = await start();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      const [pathname, hash] = path.split('#');
      await page.goto(`${e2e.baseUrl}${pathname}?lang=fi#${hash}`);
      await page.waitForSelector('main[data-state="qr"]');
      await expect(page.locator('h1').textContent()).resolves.toBe('Tunnistaudu BankID-sovelluksella');
      await expect(page.locator('#qr').getAttribute('aria-label')).resolves.toBe(
        'QR-koodi: BankID. Avaa BankID-sovellus ja skannaa koodi.',
      );
      // BankID's own message too, in Finnish.
      await expect(page.locator('#message').textContent()).resolves.toBe('Käynnistä BankID-sovellus puhelimessasi ja skannaa QR-koodi.');
    } finally {
      await page.close();
    }
  });

  it.each(['nb', 'da'] as const)("should show the heading and BankID's message in %s", async (language) => {
    const { path } = await start();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      const [pathname, hash] = path.split('#');
      await page.goto(`${e2e.baseUrl}${pathname}?lang=${language}#${hash}`);
      await page.waitForSelector('main[data-state="qr"]');
      await expect(page.locator('h1').textContent()).resolves.toBe(KIOSK_TEXT[language].withApp.replace('{app}', 'BankID'));
      await expect(page.locator('#message').textContent()).resolves.toBe(RFA_USER_MESSAGES.texts.RFA1QR[language]);
    } finally {
      await page.close();
    }
  });

  it.each([
    ['a wrong token', (sessionId: string) => `/kiosk/${sessionId}#t=${'A'.repeat(28)}`],
    ['no token', (sessionId: string) => `/kiosk/${sessionId}`],
    [
      'an expired token',
      (sessionId: string) => `/kiosk/${sessionId}#t=${e2e.app.get(KioskTokenSigner).issue(sessionId, new Date(Date.now() - 1_000))}`,
    ],
  ])('should show an error and no QR for %s', async (_name, link) => {
    const { sessionId } = await start();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'sv-SE' });
    try {
      await page.goto(`${e2e.baseUrl}${link(sessionId)}`);
      await page.waitForSelector('main[data-state="error"]');
      await expect(page.locator('#qr').isHidden()).resolves.toBe(true);
      expect(await page.locator('#message').textContent()).toMatch(/ogiltig eller har gått ut/);
      if (_name === 'a wrong token') await shoot(page, 'kiosk-invalid-link.png');
    } finally {
      await page.close();
    }
  });

  it("should rasterise the API's SVG and PNG frames into QR codes a decoder reads", async () => {
    const { sessionId, qrStartSecret } = await start();
    const page = await browser.newPage({ viewport: { width: 600, height: 600 } });
    try {
      for (const format of ['svg', 'png']) {
        const image = await e2e.http
          .get(`/api/v1/auth/${sessionId}/qr?format=${format}&size=400`)
          .set('x-api-key', e2e.key)
          .buffer(true)
          .expect(200);
        const type = format === 'svg' ? 'image/svg+xml' : 'image/png';
        await page.setContent(`<img id="frame" src="data:${type};base64,${image.body.toString('base64')}" width="400" height="400">`);
        expectValidFrame(decodeQrPng(await page.locator('#frame').screenshot()), qrStartSecret);
      }
    } finally {
      await page.close();
    }
  });
});
