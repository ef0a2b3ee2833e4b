import type { Browser } from 'playwright-core';
import { startMellonSp, mellonAvailable, type MellonSp } from '../../support/apache-mellon.js';
import { describeInBrowser, launchChromium } from '../../support/browser.js';
import { useFront } from '../../support/front.js';
import { approveInSimulator, freePort } from '../../support/oidc-rp.js';
import { createSamlPki, type SamlPki } from '../../support/saml-sp.js';

const describeWithMellon = mellonAvailable() ? describeInBrowser : describe.skip;

describeWithMellon('SAML IdP front behind Apache with mod_auth_mellon, in Chromium', () => {
  let pki: SamlPki;
  let browser: Browser;
  let sp: MellonSp | undefined;
  beforeAll(async () => {
    pki = await createSamlPki();
    browser = await launchChromium();
  });
  const { e2e, member } = useFront({ env: () => ({ SAML_SIGNING_KEY: pki.idp.keyPath, SAML_SIGNING_CERT: pki.idp.certPath }) });
  afterAll(async () => {
    await sp?.stop();
    await browser?.close();
    await pki?.remove();
  });

  it('should let a person through to the protected page with the e-ID, the NameID and the personal number at Apache', async () => {
    const metadata = await e2e.http.get('/saml/metadata').expect(200);
    sp = await startMellonSp({ port: await freePort(), idpMetadata: metadata.text, spKey: pki.sp.key, spCert: pki.sp.cert });
    await e2e.http
      .post('/api/v1/saml-service-providers')
      .set('authorization', (await member()).bearer)
      .send({ name: 'Kommunen', entityId: sp.entityId, acsUrls: [sp.acsUrl], signingCertificate: pki.sp.cert, providers: ['simulator'] })
      .expect(201);

    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${sp.baseUrl}/`);
      await page.waitForSelector('eid-qr[state="qr"]', { timeout: 15_000 });
      expect(page.url()).toContain(`${e2e.baseUrl}/saml/login/`);
      await expect(page.locator('h1').textContent()).resolves.toContain('Kommunen');
      const sessionId = (await page.locator('eid-qr').getAttribute('session'))!;
      const kioskToken = (await page.locator('eid-qr').getAttribute('token'))!;
      await approveInSimulator(e2e.baseUrl, { uid: '', sessionId, token: kioskToken, html: '' });
      await page.waitForURL((url) => url.href.startsWith(sp!.baseUrl), { timeout: 20_000 });
      await page.waitForSelector('text=Protected', { timeout: 10_000 });
      const body = await page.locator('body').textContent();
      expect(body).toMatch(/Protected: [A-Za-z0-9_-]{43} 199001011239/);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- apache ---\n${await sp.output()}`, { cause: error });
    } finally {
      await context.close();
    }
  });
});
