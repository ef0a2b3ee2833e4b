import { type Browser, type Page } from 'playwright-core';
import { SamlServiceProviderStore } from '../../../src/saml/service-providers/saml-service-provider.store.js';
import { UsersService } from '../../../src/users/users.service.js';
import { accessibilityViolations, describeInBrowser, keepScreenshot, launchChromium } from '../../support/browser.js';
import { useE2eApp } from '../../support/e2e.js';
import { NO_IP_BLOCKING } from '../../support/protection-backends.js';
import { createSamlPki, type SamlPki } from '../../support/saml-sp.js';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.js';

// Set to a folder (e.g. docs) to keep screenshots of each page; docs/console.md's are made this way.
const SCREENSHOT_DIR = process.env.CONSOLE_SCREENSHOT_DIR;

describeInBrowser('The console SAML service providers page in a browser (headless Chromium)', () => {
  let browser: Browser;
  let page: Page;
  let base: string;
  let smtp: SmtpReceiver;
  let pki: SamlPki;
  const cspViolations: string[] = [];
  const email = 'grace@console.example';

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    pki = await createSamlPki();
  });
  const e2e = useE2eApp({
    env: () => ({
      ...NO_IP_BLOCKING,
      OTP_DELIVERY: 'smtp',
      SMTP_URL: smtp.url,
      SAML_SIGNING_KEY: pki.idp.keyPath,
      SAML_SIGNING_CERT: pki.idp.certPath,
    }),
    listen: true,
    withKey: { plan: 'pro' },
    bootTimeout: 120_000,
  });
  afterAll(async () => {
    await browser?.close();
    await smtp?.close();
    await pki?.remove();
  });

  const expectAccessible = async () => {
    const violations = await accessibilityViolations(page);
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  };
  const stored = async () => (await e2e.app.get(SamlServiceProviderStore).listForTeam(e2e.team.id))[0];

  beforeAll(async () => {
    base = `http://localhost:${new URL(e2e.baseUrl).port}`;
    await e2e.app.get(UsersService).create({ teamId: e2e.team.id, email });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'sv-SE' });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
    });
    await page.goto(`${base}/console`);
    await page.getByLabel('E-post eller mobilnummer (+46…)').fill(email);
    await page.getByRole('button', { name: 'Skicka kod' }).click();
    await page.getByLabel('Kod').waitFor();
    await page.getByLabel('Kod').fill(/login code is (\d{6})\./.exec(smtp.messages.at(-1)!.raw)![1]);
    await page.getByRole('button', { name: 'Logga in' }).click();
    await page.waitForSelector('main[data-page="overview"]');
  }, 120_000);

  it('should register a service provider, show its entityID, ACS URLs, certificates, e-IDs and attributes, edit it and delete it', async () => {
    await page.getByRole('link', { name: 'SAML-tjänsteleverantörer' }).click();
    await page.waitForSelector('main[data-page="saml-service-providers"]');
    await page.getByText('Inga SAML-tjänsteleverantörer än.').waitFor();

    const form = page.locator('.panel');
    await form.getByLabel('Namn', { exact: true }).fill('E-tjänsteportalen');
    await form.getByLabel('Entity ID').fill('https://sp.example.com/saml');
    await form.getByLabel('ACS-adresser, HTTP-POST (en per rad, matchas exakt)').fill('https://sp.example.com/saml/acs');
    await form.getByLabel('Signeringscertifikat (PEM)').fill(pki.sp.cert);
    await form.getByLabel('Krypteringscertifikat (PEM, valfritt: intygen krypteras då)').fill(pki.spEncryption.cert);
    await form.getByLabel(/^Erbjudna e-legitimationer/).fill('simulator');
    await form.getByLabel('userSignature').uncheck();
    await expectAccessible();
    await form.getByRole('button', { name: 'Skapa', exact: true }).click();

    const card = page.locator('li.card', { hasText: 'E-tjänsteportalen' });
    await card.waitFor();
    await card.getByText('https://sp.example.com/saml/acs').waitFor();
    await expect(card.textContent()).resolves.toContain('https://sp.example.com/saml');
    await expect(card.textContent()).resolves.toContain('kryptering:');
    await expect(card.textContent()).resolves.toMatch(/https?:\/\/[^/]+\/saml\/metadata/);
    expect(await stored()).toMatchObject({
      entityId: 'https://sp.example.com/saml',
      acsUrls: ['https://sp.example.com/saml/acs'],
      providers: ['simulator'],
      attributes: expect.not.arrayContaining(['userSignature']),
      encryptionCertificate: expect.stringContaining('BEGIN CERTIFICATE'),
    });
    await expectAccessible();
    await keepScreenshot(page, SCREENSHOT_DIR, 'console-saml-sps.png');

    // Edit: a second ACS URL, no encryption, every e-ID; the form starts from what is stored.
    await card.getByRole('button', { name: 'Ändra' }).click();
    await expect(card.getByLabel(/^Erbjudna e-legitimationer/).inputValue()).resolves.toBe('simulator');
    await card
      .getByLabel('ACS-adresser, HTTP-POST (en per rad, matchas exakt)')
      .fill('https://sp.example.com/saml/acs\nhttps://sp.example.com/saml/acs2');
    await card.getByLabel('Krypteringscertifikat (PEM, valfritt: intygen krypteras då)').fill('');
    await card.getByLabel(/^Erbjudna e-legitimationer/).fill('');
    await expectAccessible();
    await card.getByRole('button', { name: 'Spara' }).click();
    await page.getByText('Sparat.').waitFor();
    await card.getByText('https://sp.example.com/saml/acs2').waitFor();
    expect(await stored()).toMatchObject({
      acsUrls: ['https://sp.example.com/saml/acs', 'https://sp.example.com/saml/acs2'],
      encryptionCertificate: null,
      providers: null,
    });

    await card.getByRole('button', { name: 'Ta bort' }).click();
    await card.getByRole('button', { name: 'Ja, ta bort' }).click();
    await page.getByText('Inga SAML-tjänsteleverantörer än.').waitFor();
    expect(await stored()).toBeUndefined();
    expect(cspViolations).toEqual([]);
  });

  it("should show the API's own words when an ACS URL is refused", async () => {
    const form = page.locator('.panel');
    await form.getByLabel('Namn', { exact: true }).fill('Osäker');
    await form.getByLabel('Entity ID').fill('https://sp2.example.com/saml');
    await form.getByLabel('ACS-adresser, HTTP-POST (en per rad, matchas exakt)').fill('http://sp2.example.com/acs');
    await form.getByLabel('Signeringscertifikat (PEM)').fill(pki.sp.cert);
    await form.getByRole('button', { name: 'Skapa', exact: true }).click();
    await page.getByRole('alert').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/acsUrls/);
    await expectAccessible();
  });
});
