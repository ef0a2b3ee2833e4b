import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type Page } from 'playwright-core';
import { decodeQrPng } from '../../support/decode-qr.js';
import { describeInBrowser, launchChromium } from '../../support/browser.js';
import { useE2eApp } from '../../support/e2e.js';

const PUBLIC_BASE_URL = 'http://eid-gateway.test';
const QR_DATA = /^bankid\.([0-9a-f-]{36})\.(\d+)\.([0-9a-f]{64})$/;
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/**
 * The RP's own site, on another origin than the service: a page that embeds <eid-qr> under a strict CSP
 * (no inline script or style; scripts and connections only to the service), and the page returnUrl names.
 */
async function startRelyingParty(gateway: string) {
  const csp = [
    "default-src 'none'",
    `script-src ${gateway}`,
    `connect-src ${gateway}`,
    "style-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://rp');
    if (url.pathname === '/login') {
      const attribute = (name: string) => (url.searchParams.get(name) ?? '').replace(/[^A-Za-z0-9_-]/g, '');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp });
      response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>RP login</title><script type="module" src="${gateway}/kiosk/eid-qr.js"></script></head>
<body><h1>Log in to the RP</h1><eid-qr session="${attribute('session')}" token="${attribute('token')}" lang="en"></eid-qr></body></html>`);
      return;
    }
    if (url.pathname === '/done') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp });
      response.end(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Back at the RP</title></head><body><p id="back">Welcome back</p></body></html>',
      );
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // "localhost" against the service's "127.0.0.1": another origin, so the browser applies CORS for real.
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describeInBrowser('<eid-qr> and the same-device flow in a browser (headless Chromium)', () => {
  let browser: Browser;
  let rp: Awaited<ReturnType<typeof startRelyingParty>>;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await rp?.close();
  });
  // The real clock: the element redraws on real seconds, and the background collector moves the session.
  const e2e = useE2eApp({ listen: true, withKey: true, env: { PUBLIC_BASE_URL } });
  beforeAll(async () => {
    rp = await startRelyingParty(e2e.baseUrl);
  });

  const start = async (body: object = {}) => {
    const started = (
      await e2e.http
        .post('/api/v1/auth/simulator/start')
        .set('x-api-key', e2e.key)
        .send({ endUserIp: '192.0.2.10', ...body })
        .expect(200)
    ).body;
    const token = new URLSearchParams(new URL(started.kioskUrl).hash.slice(1)).get('t')!;
    return { ...started, loginPage: `${rp.origin}/login?session=${started.sessionId}&token=${token}` };
  };

  const readQr = async (page: Page, qrStartSecret: string) => {
    const text = decodeQrPng(await page.locator('eid-qr #qr').screenshot());
    const [, , qrTime, code] = QR_DATA.exec(text ?? '') ?? [];
    expect(code).toBe(createHmac('sha256', qrStartSecret).update(qrTime).digest('hex'));
    return text!;
  };

  /**
   * The phone scans the QR the page shows. A frame is good for 3 s, as in BankID's app; on a loaded
   * machine the screenshot and decoding can take longer, and then the phone scans again, as a person would.
   */
  const scanShownQr = async (page: Page, qrStartSecret: string) => {
    for (let attempt = 1; ; attempt++) {
      const answer = await e2e.http.post('/api/v1/simulator/scan').send({ qrData: await readQr(page, qrStartSecret) });
      if (answer.status === 200) return;
      expect({ status: answer.status, code: answer.body.code, attempt }).toEqual({ status: 400, code: 'qr_expired', attempt });
      if (attempt === 3) throw new Error('three frames in a row were older than 3 s when scanned');
    }
  };

  const refusals = (page: Page) => {
    const seen: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|CORS|Refused/i.test(message.text())) seen.push(message.text());
    });
    return seen;
  };

  it('should show a QR a phone can read on a strict-CSP page of another origin, then the outcome', async () => {
    const { qrStartSecret, loginPage } = await start();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const refused = refusals(page);
    try {
      await page.goto(loginPage);
      await page.waitForSelector('eid-qr[state="qr"]');
      expect(await page.locator('eid-qr #message').textContent()).toBe('Start the BankID app on your phone and scan the QR code.');
      await scanShownQr(page, qrStartSecret);
      // Desktop: no app link, the QR is the way.
      await expect(page.locator('eid-qr #launch').isHidden()).resolves.toBe(true);
      await page.waitForSelector('eid-qr[state="complete"]', { timeout: 15_000 });
      expect(await page.locator('eid-qr #message').textContent()).toBe('Done! You are identified.');
      expect(refused).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('should lead with Open BankID on a phone, show the QR on request, and bring the person back to a verifiable return', async () => {
    const { sessionId, qrStartSecret, loginPage } = await start({ returnUrl: `${rp.origin}/done` });
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      userAgent: IPHONE,
    });
    // Links name the service by its PUBLIC_BASE_URL, as behind a proxy; the browser reaches this test's instance.
    // Fetched and fulfilled (not re-addressed), so the page keeps its public origin for 'self' in its CSP.
    await context.route(`${PUBLIC_BASE_URL}/**`, async (route) => {
      const response = await route.fetch({ url: route.request().url().replace(PUBLIC_BASE_URL, e2e.baseUrl), maxRedirects: 0 });
      await route.fulfill({ response });
    });
    const page = await context.newPage();
    const refused = refusals(page);
    try {
      await page.goto(loginPage);
      await page.waitForSelector('eid-qr[state="launch"]');
      const launch = page.locator('eid-qr #launch');
      expect(await launch.textContent()).toBe('Open BankID');
      expect(await launch.getAttribute('href')).toMatch(new RegExp(`^${PUBLIC_BASE_URL}/simulator/app\\?autostarttoken=[0-9a-f-]{36}$`));

      // "BankID on another device?": the QR on request, and back.
      await page.locator('eid-qr #toggle').click();
      await page.waitForSelector('eid-qr[state="qr"]');
      await readQr(page, qrStartSecret);
      await page.locator('eid-qr #toggle').click();
      await page.waitForSelector('eid-qr[state="launch"]');

      // The tap opens the (simulated) app in the same tab; the person approves and the app sends them back.
      await launch.click();
      await page.waitForSelector('main[data-state="waiting"]');
      expect(await page.locator('#destination').textContent()).toBe(`Afterwards you return to ${new URL(rp.origin).host}.`);
      const box = (await page.locator('#approve').boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      await page.locator('#approve').click();
      await page.waitForURL(new RegExp(`^${rp.origin}/done\\?eidgw_nonce=`));
      expect(await page.locator('#back').textContent()).toBe('Welcome back');
      const nonce = new URL(page.url()).searchParams.get('eidgw_nonce')!;

      // The RP's backend confirms the return with the nonce: pending until the app's answer is collected, then complete.
      let answer: { status: string } = { status: 'pending' };
      for (let tries = 0; answer.status === 'pending' && tries < 60; tries++) {
        answer = (await e2e.http.post(`/api/v1/auth/${sessionId}/return`).set('x-api-key', e2e.key).send({ nonce }).expect(200)).body;
        if (answer.status === 'pending') await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(answer).toMatchObject({ sessionId, status: 'complete', user: { personalNumber: '199001011239' } });
      expect(refused).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
