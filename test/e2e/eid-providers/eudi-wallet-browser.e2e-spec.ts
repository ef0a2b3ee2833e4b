import type { Browser } from 'playwright-core';
import { accessibilityViolations, describeInBrowser, launchChromium } from '../../support/browser.js';
import { decodeQrPng } from '../../support/decode-qr.js';
import { useE2eApp } from '../../support/e2e.js';
import { waitUntil } from '../../support/webhooks.js';

describeInBrowser('EU Digital Identity Wallet: the simulator wallet in a browser (headless Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const e2e = useE2eApp({ listen: true, withKey: true, env: { PROVIDERS: 'simulator,eudi' } });

  const start = async (body: object = {}) =>
    (
      await e2e.http
        .post('/api/v1/auth/eudi/start')
        .set('x-api-key', e2e.key)
        .send({ endUserIp: '192.0.2.10', ...body })
        .expect(200)
    ).body;
  const poll = (sessionId: string) =>
    waitUntil(async () => {
      e2e.clock.advance(2_500);
      const answer = (await e2e.http.post(`/api/v1/auth/${sessionId}/poll`).set('x-api-key', e2e.key).expect(200)).body;
      return answer.status === 'pending' ? undefined : answer;
    }, 'the session to end');

  it('should scan the QR on another device, show who asks for what in Swedish, share the test PID and complete', async () => {
    const { sessionId } = await start();
    const png = (await e2e.http.get(`/api/v1/auth/${sessionId}/qr?format=png`).set('x-api-key', e2e.key).buffer(true).expect(200)).body;
    const link = decodeQrPng(png as Buffer)!;
    expect(link).toMatch(
      /^openid4vp:\/\/\?client_id=x509_san_dns:localhost&request_uri=http:\/\/localhost:\d+\/openid4vp\/request\/[0-9a-f-]{36}$/,
    );

    const context = await browser.newContext({ locale: 'sv-SE' });
    const page = await context.newPage();
    const wallet = await page.goto(`${e2e.baseUrl}/simulator/wallet`);
    const csp = wallet!.headers()['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    await page.fill('#link', link);
    await page.click('#open');
    await page.waitForSelector('#claims');
    expect(await page.textContent('h1')).toBe('Dela dina uppgifter?');
    expect(await page.textContent('#verifier')).toBe('eid-gateway test verifier');
    expect(await page.textContent('#verifier-host')).toBe('localhost');
    expect(await page.$$eval('#claims li', (items) => items.map((item) => item.textContent))).toEqual([
      'Förnamn',
      'Efternamn',
      'Födelsedatum',
      'Medborgarskap',
      'Personnummer',
    ]);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.click('#share');
    await page.waitForSelector('main[data-state="shared"]');
    await context.close();

    expect(await poll(sessionId)).toMatchObject({
      status: 'complete',
      user: { givenName: 'Tess', surname: 'Testsson', birthdate: '1990-01-01', nationalId: '199001011239', country: 'SE' },
      evidence: { kind: 'openid4vp', vct: 'urn:eudi:pid:1', verification: { status: 'verified', keyBinding: 'valid' } },
    });
  }, 30_000);

  it('should open the link on the same device and return the browser to the RP with its nonce', async () => {
    const { sessionId, launchUrl } = await start({ returnUrl: 'https://rp.example/back' });
    const context = await browser.newContext({ locale: 'en-GB' });
    const page = await context.newPage();
    let returned = '';
    await page.route('https://rp.example/**', async (route) => {
      returned = route.request().url();
      await route.fulfill({ status: 200, body: 'back at the RP' });
    });
    await page.goto(`${e2e.baseUrl}/simulator/wallet?link=${encodeURIComponent(launchUrl as string)}`);
    expect(await page.textContent('h1')).toBe('Share your details?');
    await page.click('#share');
    await page.click('#continue');
    await waitUntil(async () => returned, 'the return to the RP');
    await context.close();
    const nonce = new URL(returned).searchParams.get('eidgw_nonce')!;
    await e2e.http.post(`/api/v1/auth/${sessionId}/return`).set('x-api-key', e2e.key).send({ nonce }).expect(200);
    expect(await poll(sessionId)).toMatchObject({ status: 'complete' });
  }, 30_000);

  it('should fail userCancel when the person declines, and show a used link as gone', async () => {
    const { sessionId, launchUrl } = await start();
    const context = await browser.newContext({ locale: 'en-GB' });
    const page = await context.newPage();
    const opened = `${e2e.baseUrl}/simulator/wallet?link=${encodeURIComponent(launchUrl as string)}`;
    await page.goto(opened);
    await page.click('#decline');
    await page.waitForSelector('main[data-state="declined"]');
    expect((await page.goto(opened))!.status()).toBe(404);
    expect(await page.getAttribute('main', 'data-state')).toBe('gone');
    await context.close();
    expect(await poll(sessionId)).toMatchObject({ status: 'failed', hintCode: 'userCancel' });
  }, 30_000);
});
