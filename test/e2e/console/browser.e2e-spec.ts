import { type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { UsersService } from '../../../src/users/users.service.js';
import { accessibilityViolations, describeInBrowser, keepScreenshot, launchChromium } from '../../support/browser.js';
import { useE2eApp } from '../../support/e2e.js';
import { expectProblem } from '../../support/problem.js';
import { NO_IP_BLOCKING } from '../../support/protection-backends.js';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

// Set to a folder (e.g. docs) to keep screenshots of each page; docs/console.md's are made this way.
const SCREENSHOT_DIR = process.env.CONSOLE_SCREENSHOT_DIR;
const SESSIONS = 12;

/** What the functions run in the page use of it (the tests compile without the DOM library). */
interface InPage {
  document: { cookie: string; documentElement: { scrollWidth: number }; activeElement: { textContent: string | null } | null };
  navigator: { clipboard: { readText(): Promise<string> } };
}

describeInBrowser('Team console in a browser (headless Chromium)', () => {
  let smtp: SmtpReceiver;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  const cspViolations: string[] = [];
  const email = 'ada@console.example';

  // Declared first so that the browser closes before the app does.
  afterAll(async () => {
    await browser?.close();
  });
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    receiver = await WebhookReceiver.start();
  });
  // The real clock: the dispatcher and the page run on real time.
  const e2e = useE2eApp({
    env: () => ({
      ...NO_IP_BLOCKING,
      OTP_DELIVERY: 'smtp',
      SMTP_URL: smtp.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // Keys' last uses reach the listing within a tenth of a second instead of ten.
      API_KEY_LAST_USED_FLUSH_INTERVAL: '100ms',
      // The sessions started before the browser opens stay pending for the whole run, however slow the host
      // (unscanned simulator orders fail after 30 s by default).
      SIMULATOR_START_TIMEOUT: '5m',
    }),
    listen: true,
    withKey: { plan: 'pro' },
    bootTimeout: 120_000,
  });
  afterAll(async () => {
    await receiver?.close();
    await smtp?.close();
  });

  const main = (name: string) => page.waitForSelector(`main[data-page="${name}"]`);
  // The "last used" column of a key's row (the sixth).
  const lastUsedOf = (row: Locator) => row.locator('td').nth(5);

  const shoot = (target: Page, name: string) => keepScreenshot(target, SCREENSHOT_DIR, name);

  const expectAccessible = async (target: Page) => {
    const violations = await accessibilityViolations(target);
    if (process.env.CONSOLE_AXE_REPORT) process.stdout.write(`axe: ${JSON.stringify(violations)}\n`);
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  };

  beforeAll(async () => {
    // localhost: a secure context for the browser, which then keeps the Secure __Host- cookie over plain http.
    base = `http://localhost:${new URL(e2e.baseUrl).port}`;
    await e2e.app.get(UsersService).create({ teamId: e2e.team.id, email });
    for (let i = 0; i < SESSIONS; i++) {
      await e2e.http.post('/api/v1/auth/simulator/start').set('x-api-key', e2e.key).send({ endUserIp: '192.0.2.10' }).expect(200);
    }
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'sv-SE' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
    });
  }, 120_000);

  it('should log in with the e-mailed code, in Swedish, holding the token where no script can read it', async () => {
    await page.goto(`${base}/console`);
    await main('login');
    await expect(page.locator('h1').textContent()).resolves.toBe('Logga in');
    await expectAccessible(page);
    await shoot(page, 'console-login.png');

    // By keyboard alone: the skip link comes first, then the fields; Enter submits.
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => (globalThis as unknown as InPage).document.activeElement?.textContent)).resolves.toBe(
      'Hoppa till innehållet',
    );
    await page.getByLabel('E-post eller mobilnummer (+46…)').focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    await page.getByLabel('Kod').waitFor();
    const mail = smtp.messages.at(-1)!;
    expect(mail.to).toEqual([email]);
    await page.getByLabel('Kod').focus();
    await page.keyboard.type(/login code is (\d{6})\./.exec(mail.raw)![1]);
    await page.keyboard.press('Enter');
    // The overview is the first page (docs/console.md).
    await main('overview');

    const [cookie] = await context.cookies(base);
    expect(cookie).toMatchObject({ name: '__Host-eidgw-console', httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
    expect(await page.evaluate(() => (globalThis as unknown as InPage).document.cookie)).toBe('');
  });

  it('should create a key and show its secret once, which then works against the API until it is revoked', async () => {
    await page.goto(`${base}/console#/api-keys`);
    await main('api-keys');
    await page.getByLabel('Namn').fill('browser key');
    await page.getByRole('button', { name: 'Skapa', exact: true }).click();
    const secretField = page.locator('#secret-value');
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^eidk_test_[A-Za-z0-9]{32,}$/);
    await page.getByRole('button', { name: 'Kopiera' }).click();
    await page.getByRole('button', { name: 'Kopierad' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as InPage).navigator.clipboard.readText())).toBe(secret);
    await expectAccessible(page);
    await shoot(page, 'console-api-key-created.png');
    await page.getByRole('button', { name: 'Klar' }).click();

    // Once: after the dialog and on a fresh load the page holds only the prefix and last four.
    await page.reload();
    await main('api-keys');
    const row = page.locator('tr', { hasText: 'browser key' });
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);
    await expect(row.textContent()).resolves.toContain(secret.slice(-4));
    await expect(lastUsedOf(row).textContent()).resolves.toBe('Aldrig');

    // Used once: a fresh load shows when, in Swedish form, once the flush has written it.
    await e2e.http.post('/api/v1/auth/simulator/start').set('x-api-key', secret).send({ endUserIp: '192.0.2.11' }).expect(200);
    for (let tries = 0; (await lastUsedOf(row).textContent()) === 'Aldrig' && tries < 20; tries++) {
      await page.waitForTimeout(100);
      await page.reload();
      await main('api-keys');
    }
    await expect(lastUsedOf(row).textContent()).resolves.toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await shoot(page, 'console-api-keys.png');

    await row.getByRole('button', { name: 'Återkalla browser key' }).click();
    await row.getByRole('alertdialog').waitFor();
    await row.getByRole('button', { name: 'Ja, återkalla' }).click();
    await page.locator('tr', { hasText: 'browser key' }).filter({ hasText: 'Återkallad' }).waitFor();
    const refused = await e2e.http.post('/api/v1/auth/simulator/start').set('x-api-key', secret).send({ endUserIp: '192.0.2.11' });
    expectProblem(refused, 401, 'invalid_api_key');
  });

  it('should add a webhook endpoint, send it a test event, and show the delivery with its attempt in the log', async () => {
    await page.goto(`${base}/console#/webhooks`);
    await main('webhooks');
    await page.getByLabel('URL').fill(receiver.url());
    await page.getByRole('button', { name: 'Skapa', exact: true }).click();
    await expect(page.locator('#secret-value').inputValue()).resolves.toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Klar' }).click();
    const card = page.locator('li.card', { hasText: receiver.url() });

    await card.getByRole('button', { name: 'Ändra händelsetyper' }).click();
    for (const type of ['auth.session.failed', 'sign.session.completed', 'sign.session.failed']) await card.getByLabel(type).uncheck();
    await card.getByRole('button', { name: 'Spara' }).click();
    await card.locator('dd', { hasText: /^auth\.session\.completed$/ }).waitFor();

    await card.getByRole('button', { name: 'Skicka testhändelse' }).click();
    await page.getByText('Testhändelsen är köad; se leveransloggen.').waitFor();
    await expectAccessible(page);
    await shoot(page, 'console-webhooks.png');

    await page.goto(`${base}/console#/deliveries`);
    await main('deliveries');
    const delivered = page.locator('tr[data-status="delivered"]', { hasText: 'webhook.test' });
    await delivered.waitFor({ timeout: 15_000 });
    expect(receiver.requests).toHaveLength(1);
    await delivered.getByRole('button', { name: '1', exact: true }).click();
    const attempts = page.locator('table.attempts');
    await expect(attempts.locator('tbody tr').first().textContent()).resolves.toMatch(/200.*\d+ ms/);
    await delivered.getByRole('button', { name: 'Skicka igen' }).click();
    await page.getByText('Skickad igen.').waitFor();
    await expectAccessible(page);
    await shoot(page, 'console-deliveries.png');
    await page
      .locator('tr[data-status="delivered"]', { hasText: 'webhook.test' })
      .getByRole('button', { name: '2', exact: true })
      .waitFor({ timeout: 15_000 });

    // The filters are the service's: a status with no rows empties the table.
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Filtrera' }).click();
    await page.getByText('Inga leveranser matchar.').waitFor();
  });

  it('should rotate the secret of an endpoint, disable it, and delete it after a confirmation', async () => {
    await page.goto(`${base}/console#/webhooks`);
    await main('webhooks');
    const card = page.locator('li.card', { hasText: receiver.url() });
    await card.getByRole('button', { name: 'Byt hemlighet' }).click();
    await expect(page.locator('#secret-value').inputValue()).resolves.toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Klar' }).click();

    await card.getByRole('button', { name: 'Stäng av' }).click();
    await card.locator('dd', { hasText: 'Avstängd (manual)' }).waitFor();
    await expect(card.getByRole('button', { name: 'Skicka testhändelse' }).isDisabled()).resolves.toBe(true);

    await card.getByRole('button', { name: 'Ta bort' }).click();
    await card.getByRole('button', { name: 'Ja, ta bort' }).click();
    await page.getByText('Inga mottagare än.').waitFor();
  });

  it('should page, sort and filter the sessions on the server, without personal data', async () => {
    await page.goto(`${base}/console#/sessions`);
    await main('sessions');
    const rows = page.locator('main tbody tr');
    await page.getByText('Rad 1–10').waitFor();
    expect(await rows.count()).toBe(10);
    await page.getByRole('button', { name: 'Nästa' }).click();
    // Twelve started here, one with the key made in the browser: thirteen in all.
    await page.getByText(`Rad 11–${SESSIONS + 1} av ${SESSIONS + 1}`).waitFor();
    expect(await rows.count()).toBe(SESSIONS + 1 - 10);
    await page.getByRole('button', { name: 'Föregående' }).click();
    await page.getByText('Rad 1–10').waitFor();

    await page.getByRole('button', { name: 'Skapad' }).click();
    await page.locator('th[aria-sort="ascending"]', { hasText: 'Skapad' }).waitFor();
    await page.getByLabel('Status').selectOption('complete');
    await page.getByRole('button', { name: 'Filtrera' }).click();
    await page.getByText('Inga sessioner matchar.').waitFor();
    await page.getByLabel('Status').selectOption('pending');
    await page.getByRole('button', { name: 'Filtrera' }).click();
    await page.getByText('Rad 1–10').waitFor();
    expect(await page.content()).not.toContain('192.0.2.10');
    await expectAccessible(page);
    await shoot(page, 'console-sessions.png');
  });

  it('should speak English and fit a phone', async () => {
    await page.goto(`${base}/console#/api-keys`);
    await main('api-keys');
    await page.getByLabel('Språk').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    // The document's lang follows the chosen language in an effect after the render: wait for it.
    await page.waitForSelector('html[lang="en"]', { state: 'attached' });

    const phone = await context.newPage();
    try {
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto(`${base}/console#/api-keys`);
      await phone.waitForSelector('main[data-page="api-keys"]');
      await phone.locator('tr', { hasText: 'browser key' }).waitFor();
      // The team's first key, used before the browser opened, in English form.
      await expect(lastUsedOf(phone.locator(`tr[data-key-id="${e2e.apiKey.id}"]`)).textContent()).resolves.toMatch(
        /^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}$/,
      );
      // Nothing wider than the screen but the tables' own scrolling boxes.
      const width = await phone.evaluate(() => (globalThis as unknown as InPage).document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      await expectAccessible(phone);
      await shoot(phone, 'console-phone.png');
    } finally {
      await phone.close();
    }
  });

  it('should log out: the cookie is gone and the management API refuses the browser', async () => {
    await page.goto(`${base}/console#/api-keys`);
    await main('api-keys');
    await page.getByRole('button', { name: 'Log out' }).click();
    await main('login');
    expect(await context.cookies(base)).toEqual([]);
    expect(await page.evaluate(() => fetch('/api/v1/me', { headers: { 'x-eidgw-console': '1' } }).then((r) => r.status))).toBe(401);
    expect(cspViolations).toEqual([]);
  });
});
