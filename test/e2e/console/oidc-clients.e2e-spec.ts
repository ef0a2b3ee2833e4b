import { type Browser, type Page } from 'playwright-core';
import { OidcClientsService } from '../../../src/oidc/clients/oidc-clients.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { accessibilityViolations, describeInBrowser, keepScreenshot, launchChromium } from '../../support/browser.js';
import { useE2eApp } from '../../support/e2e.js';
import { NO_IP_BLOCKING } from '../../support/protection-backends.js';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.js';

// Set to a folder (e.g. docs) to keep screenshots of each page; docs/console.md's are made this way.
const SCREENSHOT_DIR = process.env.CONSOLE_SCREENSHOT_DIR;

describeInBrowser('The console OIDC clients page in a browser (headless Chromium)', () => {
  let browser: Browser;
  let page: Page;
  let base: string;
  let smtp: SmtpReceiver;
  const cspViolations: string[] = [];
  const email = 'edsger@console.example';

  afterAll(async () => {
    await browser?.close();
  });
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  const e2e = useE2eApp({
    env: () => ({ ...NO_IP_BLOCKING, OTP_DELIVERY: 'smtp', SMTP_URL: smtp.url }),
    listen: true,
    withKey: { plan: 'pro' },
    bootTimeout: 120_000,
  });
  afterAll(async () => {
    await smtp?.close();
  });

  const shoot = (name: string) => keepScreenshot(page, SCREENSHOT_DIR, name);
  const expectAccessible = async () => {
    const violations = await accessibilityViolations(page);
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  };
  /** How the token endpoint takes a client secret: 401 invalid_client, or past authentication to the (fake) code. */
  const tokenEndpointWith = async (clientId: string, secret: string) => {
    const response = await fetch(`${e2e.baseUrl}/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: `${base}/rp/callback` }),
    });
    return ((await response.json()) as { error: string }).error;
  };
  const secretShown = async () => {
    const secret = await page.locator('#secret-value').inputValue();
    await page.getByRole('button', { name: 'Klar' }).click();
    return secret;
  };

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

  it('should register a client with its secret shown once, edit it, rotate the secret and delete it, each change audited', async () => {
    await page.getByRole('link', { name: 'OIDC-klienter' }).click();
    await page.waitForSelector('main[data-page="oidc-clients"]');
    await page.getByText('Inga OIDC-klienter än.').waitFor();

    const form = page.locator('.panel');
    await form.getByLabel('Namn').fill('Kundportalen');
    await form.getByLabel('Omdirigerings-URI:er (en per rad)').fill(`${base}/rp/callback`);
    await form.getByLabel('Extra claim för personnummer').selectOption('ssn');
    await form.getByLabel('Högsta godtagna risk').selectOption('low');
    await form.getByRole('button', { name: 'Skapa', exact: true }).click();
    await page.locator('#secret-value').waitFor();
    await expectAccessible();
    await shoot('console-oidc-client-created.png');
    const secret = await secretShown();

    const card = page.locator('li.card', { hasText: 'Kundportalen' });
    const clientId = (await card.locator('dd code').first().textContent())!;
    expect(clientId).toMatch(/^eidc_test_/);
    await expect(tokenEndpointWith(clientId, secret)).resolves.toBe('invalid_grant');
    await page.reload();
    await card.waitFor();
    expect(await page.content()).not.toContain(secret);

    // Edit: a second redirect URI and CIBA in ping mode; the form starts from what is stored.
    await card.getByRole('button', { name: 'Ändra' }).click();
    await expect(card.getByLabel('Extra claim för personnummer').inputValue()).resolves.toBe('ssn');
    await card.getByLabel('Omdirigerings-URI:er (en per rad)').fill(`${base}/rp/callback\n${base}/rp/other`);
    await card.getByLabel('CIBA (bakkanal)').selectOption('ping');
    await card.getByLabel('Notifieringsadress (ping)').fill('https://rp.example.com/ciba');
    await expectAccessible();
    await card.getByRole('button', { name: 'Spara' }).click();
    await page.getByText('Sparat.').waitFor();
    await card.getByText(`${base}/rp/other`).waitFor();
    const [stored] = await e2e.app.get(OidcClientsService).list(e2e.team.id);
    expect(stored).toMatchObject({
      redirectUris: [`${base}/rp/callback`, `${base}/rp/other`],
      personalNumberClaim: 'ssn',
      maxRisk: 'low',
      backchannelTokenDeliveryMode: 'ping',
      backchannelClientNotificationEndpoint: 'https://rp.example.com/ciba',
      providers: null,
    });
    await shoot('console-oidc-clients.png');

    // Rotate: after a confirmation the new secret works and the old one no longer does.
    await card.getByRole('button', { name: 'Byt hemlighet' }).click();
    await card.getByRole('button', { name: 'Ja, byt' }).click();
    await page.locator('#secret-value').waitFor();
    const rotated = await secretShown();
    expect(rotated).not.toBe(secret);
    await expect(tokenEndpointWith(clientId, secret)).resolves.toBe('invalid_client');
    await expect(tokenEndpointWith(clientId, rotated)).resolves.toBe('invalid_grant');

    await card.getByRole('button', { name: 'Ta bort' }).click();
    await card.getByRole('button', { name: 'Ja, ta bort' }).click();
    await page.getByText('Inga OIDC-klienter än.').waitFor();
    await expect(tokenEndpointWith(clientId, rotated)).resolves.toBe('invalid_client');

    // The console's changes are the member's, in the audit log.
    const actions = await page.evaluate(async () => {
      const response = await fetch('/api/v1/audit-events', {
        method: 'POST',
        headers: { 'x-eidgw-console': '1', 'content-type': 'application/json' },
        body: JSON.stringify({ startRow: 0, endRow: 10, filterModel: { targetType: { filterType: 'set', values: ['oidc_client'] } } }),
      });
      return ((await response.json()) as { rows: { action: string; actor: string }[] }).rows.map((row) => `${row.action} ${row.actor}`);
    });
    expect(actions).toEqual(
      ['deleted', 'secret_rotated', 'changed', 'created'].map((action) => `oidc_client.${action} edsger@console.example`),
    );
    expect(cspViolations).toEqual([]);
  });

  it("should show the API's own words when a redirect URI is refused", async () => {
    const form = page.locator('.panel');
    await form.getByLabel('Namn').fill('Osäker');
    await form.getByLabel('Omdirigerings-URI:er (en per rad)').fill('http://rp.example.com/callback');
    await form.getByRole('button', { name: 'Skapa', exact: true }).click();
    await page.getByRole('alert').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/redirectUris/);
    await expect(page.locator('#secret-value').count()).resolves.toBe(0);
  });
});
