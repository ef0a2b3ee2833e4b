import { readFile } from 'node:fs/promises';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { verifyBundle } from '../../../src/transparency/bundle-verifier.js';
import { UsersService } from '../../../src/users/users.service.js';
import { accessibilityViolations, describeInBrowser, keepScreenshot, launchChromium } from '../../support/browser.js';
import { useE2eApp } from '../../support/e2e.js';
import { seedOverview } from '../../support/overview-seed.js';
import { NO_IP_BLOCKING } from '../../support/protection-backends.js';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.js';
import { completeSimulatorSession } from '../../support/webhooks.js';

// Set to a folder (e.g. docs) to keep screenshots of each page; docs/console.md's are made this way.
const SCREENSHOT_DIR = process.env.CONSOLE_SCREENSHOT_DIR;

interface InPage {
  document: { documentElement: { scrollWidth: number } };
}

/** Text as a reader sees it: Swedish thousands separators are no-break spaces. */
const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/** A text a canvas drew, with its horizontal extent in canvas pixels. */
interface DrawnText {
  text: string;
  left: number;
  right: number;
  y: number;
  align: string;
}
interface CanvasContext {
  canvas: { width: number; height: number };
  textAlign: string;
  measureText(text: string): { width: number };
  // Properties, not methods: the recorder keeps the originals to call them with the page's `this`.
  fillText: (this: CanvasContext, text: string, x: number, y: number, ...rest: unknown[]) => void;
  clearRect: (this: CanvasContext, x: number, y: number, width: number, height: number) => void;
}

/**
 * Run in the page before its scripts: records the texts each canvas draws since it was last cleared
 * whole (uPlot clears before each redraw), so a test can see whether the charts' axis labels overlap.
 */
function recordCanvasText(): void {
  const inPage = globalThis as unknown as {
    CanvasRenderingContext2D: { prototype: CanvasContext };
    drawnTexts: WeakMap<object, DrawnText[]>;
  };
  const drawn = new WeakMap<object, DrawnText[]>();
  inPage.drawnTexts = drawn;
  const proto = inPage.CanvasRenderingContext2D.prototype;
  const { fillText, clearRect } = proto;
  proto.clearRect = function (x, y, width, height) {
    if (x === 0 && y === 0 && width >= this.canvas.width && height >= this.canvas.height) drawn.set(this.canvas, []);
    clearRect.call(this, x, y, width, height);
  };
  proto.fillText = function (text, x, y, ...rest) {
    const width = this.measureText(text).width;
    const left = this.textAlign === 'center' ? x - width / 2 : this.textAlign === 'right' || this.textAlign === 'end' ? x - width : x;
    drawn.set(this.canvas, [
      ...(drawn.get(this.canvas) ?? []),
      { text: String(text), left, right: left + width, y, align: this.textAlign },
    ]);
    fillText.call(this, text, x, y, ...rest);
  };
}

/** The time axis's labels of a chart as last drawn: the centred texts on one line, left to right. */
async function timeLabelsOf(page: Page, chartId: string): Promise<DrawnText[]> {
  const texts = await page.evaluate((id) => {
    const inPage = globalThis as unknown as {
      document: { querySelector(selector: string): object | null };
      drawnTexts: WeakMap<object, DrawnText[]>;
    };
    const canvas = inPage.document.querySelector(`figure[aria-labelledby="${id}-caption"] canvas`);
    return canvas ? (inPage.drawnTexts.get(canvas) ?? []) : [];
  }, chartId);
  const centred = texts.filter((text) => text.align === 'center');
  const axisY = Math.max(...centred.map((text) => text.y));
  return centred.filter((text) => text.y === axisY).sort((a, b) => a.left - b.left);
}

describeInBrowser('The console overview, audit log and members in a browser (headless Chromium)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let smtp: SmtpReceiver;
  let sessionIds: string[];
  const cspViolations: string[] = [];
  const email = 'grace@console.example';

  afterAll(async () => {
    await browser?.close();
  });
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  const e2e = useE2eApp({
    env: () => ({ ...NO_IP_BLOCKING, OTP_DELIVERY: 'smtp', SMTP_URL: smtp.url }),
    listen: true,
    withKey: { plan: 'pro', key: { name: 'checkout', monthlyLimit: 1_000_000 } },
    bootTimeout: 120_000,
  });
  afterAll(async () => {
    await smtp?.close();
  });

  const main = (target: Page, name: string) => target.waitForSelector(`main[data-page="${name}"]`);
  const shoot = (target: Page, name: string) => keepScreenshot(target, SCREENSHOT_DIR, name);
  const expectAccessible = async (target: Page) => expect(await accessibilityViolations(target)).toEqual([]);
  /** The cells of a table's rows, as the reader reads them. */
  const rowsOf = (target: Page, selector: string) =>
    target
      .locator(`${selector} tbody tr`)
      .evaluateAll((rows) =>
        rows.map((row) =>
          Array.from(
            (row as unknown as { children: ArrayLike<{ textContent: string | null }> }).children,
            (cell) => cell.textContent ?? '',
          ),
        ),
      );

  beforeAll(async () => {
    base = `http://localhost:${new URL(e2e.baseUrl).port}`;
    sessionIds = await seedOverview(e2e.app, e2e.team.id, e2e.apiKey.id);
    await e2e.app.get(UsersService).create({ teamId: e2e.team.id, email });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'sv-SE' });
    page = await context.newPage();
    await page.addInitScript(recordCanvasText);
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
    });
  }, 120_000);

  it("should open on the overview after the login, with the figures of the team's sessions, in the charts' tables too", async () => {
    await page.goto(`${base}/console`);
    await page.getByLabel('E-post eller mobilnummer (+46…)').fill(email);
    await page.getByRole('button', { name: 'Skicka kod' }).click();
    await page.getByLabel('Kod').waitFor();
    await page.getByLabel('Kod').fill(/login code is (\d{6})\./.exec(smtp.messages.at(-1)!.raw)![1]);
    await page.getByRole('button', { name: 'Logga in' }).click();
    await main(page, 'overview');
    const figures = page.locator('[data-testid="figures"]');
    await figures.waitFor();
    const tiles = await figures
      .locator('.tile')
      .evaluateAll((tiles) => tiles.map((tile) => (tile as unknown as { textContent: string }).textContent));
    expect(tiles.map(plain)).toEqual([
      'Startade sessioner16',
      'Genomförda40 %',
      'Mediantid till genomförd3,5 s',
      '95:e percentilen, tid till genomförd5,8 s',
      'Levererade webhooks4',
      'Misslyckade webhooks1',
      '95:e percentilen, webhook-svarstid1 s',
    ]);
    // The sessions chart's table: 24 hours, whose columns add up to the outcomes.
    const chartRows = await rowsOf(page, 'table[data-chart-table="sessions-chart"]');
    expect(chartRows).toHaveLength(24);
    const column = (i: number) => chartRows.reduce((sum, row) => sum + Number(plain(row[i])), 0);
    expect([1, 2, 3, 4, 5].map(column)).toEqual([6, 3, 4, 2, 1]);
    expect((await rowsOf(page, 'table[data-table="providers"]')).map((row) => row.map(plain))).toEqual([
      ['bankid', '8', '2', '3', '3', '0', '0'],
      ['simulator', '8', '4', '0', '1', '2', '1'],
    ]);
    const failures = (await rowsOf(page, 'table[data-table="failures"]')).map((row) => row.map(plain));
    // BankID is not enabled in this test's deployment (no words for its codes); the simulator's are BankID's.
    expect(failures[0]).toEqual(['startFailed', 'bankid', '—', '3']);
    // The words the person read, in the page's language, with their code beside them.
    expect(failures[2]).toEqual([
      'expiredTransaction',
      'simulator',
      'BankID-appen svarar inte. Kontrollera att den är startad och att du har internetanslutning. Om du inte har något giltigt BankID kan du skaffa ett hos din bank. Försök sedan igen. RFA8',
      '2',
    ]);
    expect(await page.locator('table[data-table="failures"] tbody tr').nth(2).locator('code').textContent()).toBe('RFA8');
    const webhookRows = await rowsOf(page, 'table[data-chart-table="webhooks-chart"]');
    expect(webhookRows.reduce((sum, row) => sum + Number(plain(row[1])), 0)).toBe(4);
    // A monthly limit of a million reads as Swedish writes it.
    expect((await rowsOf(page, 'table[data-table="key-usage"]'))[0].map(plain)).toEqual([
      'checkout',
      `${e2e.apiKey.displayPrefix}…${e2e.apiKey.lastFour}`,
      '0',
      '1 000 000',
      '0 %',
    ]);
    // 24 hourly labels do not fit 1280 px: the time axes show fewer, none overlapping its neighbour.
    for (const chart of ['sessions-chart', 'webhooks-chart']) {
      const labels = await timeLabelsOf(page, chart);
      expect(labels.length).toBeGreaterThanOrEqual(4);
      expect(labels.length).toBeLessThan(24);
      for (let i = 1; i < labels.length; i++) expect(labels[i].left).toBeGreaterThan(labels[i - 1].right);
    }
    await expectAccessible(page);
    await shoot(page, 'console-overview.png');

    await page.getByLabel('Miljö').selectOption('live');
    await figures.locator('.tile', { hasText: 'Startade sessioner' }).filter({ hasText: '5' }).waitFor();
    await page.getByLabel('Period').selectOption('30d');
    await page.locator('table[data-chart-table="sessions-chart"] tbody tr').nth(29).waitFor({ state: 'attached' });
    expect(await page.locator('table[data-chart-table="sessions-chart"] tbody tr').count()).toBe(30);
  });

  it('should write numbers the English way in English, and fit a phone', async () => {
    const phone = await context.newPage();
    try {
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto(`${base}/console#/overview`);
      await main(phone, 'overview');
      await phone.getByLabel('Språk').selectOption('en');
      await phone.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      await phone.locator('table[data-table="key-usage"] td', { hasText: '1,000,000' }).waitFor({ state: 'attached' });
      await phone.locator('.tile', { hasText: 'Median time to complete' }).filter({ hasText: '3.5 s' }).waitFor();
      const width = await phone.evaluate(() => (globalThis as unknown as InPage).document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      await expectAccessible(phone);
      await shoot(phone, 'console-overview-phone.png');
      await phone.goto(`${base}/console#/api-keys`);
      await phone.locator('td', { hasText: '1,000,000 per month' }).waitFor();
      await phone.getByLabel('Language').selectOption('sv');
    } finally {
      await phone.close();
    }
  });

  it("should filter the sessions by one of the team's providers and open a session's timeline", async () => {
    await page.goto(`${base}/console#/sessions`);
    await main(page, 'sessions');
    await page.getByLabel('Leverantör').locator('option', { hasText: 'bankid' }).waitFor({ state: 'attached' });
    expect(await page.getByLabel('Leverantör').locator('option').allTextContents()).toEqual(['Alla', 'bankid', 'simulator']);
    await page.getByLabel('Leverantör').selectOption('bankid');
    await page.getByLabel('Miljö').selectOption('test');
    await page.getByLabel('Status').selectOption('complete');
    await page.getByRole('button', { name: 'Filtrera' }).click();
    await page.getByText('Rad 1–2 av 2').waitFor();
    // The fifth seeded session: bankid, complete, its webhook message failed after three attempts.
    await page.getByRole('link', { name: `Tidslinje för ${sessionIds[4].slice(0, 8)}` }).click();
    await main(page, 'timeline');
    await page.getByRole('heading', { level: 1, name: `Tidslinje för session ${sessionIds[4].slice(0, 8)}` }).waitFor();
    // The heading is drawn before the timeline's answer arrives; its lists come with the answer.
    await page.locator('[data-list="events"] > li').first().waitFor();
    // Status words in the page's language; hint codes are codes.
    expect(plain(await page.locator('dl.facts dd').nth(2).textContent())).toBe('genomförd');
    expect((await page.locator('[data-list="events"] > li').allTextContents()).map(plain)).toEqual([
      expect.stringMatching(/väntar outstandingTransaction$/),
    ]);
    const webhook = page.locator('[data-list="webhooks"] > li');
    await expect(webhook.count()).resolves.toBe(1);
    expect(plain(await webhook.textContent())).toContain('auth.session.completed → https://hooks.example.com/eid: misslyckad');
    expect(await webhook.locator('ol > li').count()).toBe(3);
    expect(plain(await webhook.locator('ol > li').first().textContent())).toMatch(/http_error 500 \(1 s\)$/);
    await expectAccessible(page);
    await shoot(page, 'console-timeline.png');
  });

  it("should download a final session's evidence bundle from its timeline, a file that verifies offline", async () => {
    const sessionId = await completeSimulatorSession(e2e.app, e2e.clock, e2e.key);
    await page.goto(`${base}/console#/sessions/${sessionId}`);
    await main(page, 'timeline');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Ladda ned bevispaket' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`eid-gateway-bundle-${sessionId}.json`);
    const bundle = JSON.parse(await readFile(await download.path(), 'utf8'));
    expect(await verifyBundle(bundle)).toMatchObject({ valid: true, result: { sessionId, status: 'complete' } });
    await expectAccessible(page);
  });

  it('should show the revocation of a key in the audit log, with who and from where', async () => {
    await page.goto(`${base}/console#/api-keys`);
    await main(page, 'api-keys');
    await page.locator(`tr[data-key-id="${e2e.apiKey.id}"]`).getByRole('button', { name: 'Återkalla' }).click();
    await page.getByRole('button', { name: 'Ja, återkalla' }).click();
    await page.locator(`tr[data-key-id="${e2e.apiKey.id}"]`, { hasText: 'Återkallad' }).waitFor();

    await page.goto(`${base}/console#/audit`);
    await main(page, 'audit');
    const entry = page.locator('tr[data-action="api_key.revoked"]');
    await entry.waitFor();
    const cells = (await entry.locator('td').allTextContents()).map(plain);
    expect(cells.slice(1, 5)).toEqual([email, 'api_key.revoked', e2e.apiKey.id.slice(0, 8), 'test']);
    expect(cells[5]).toMatch(/127\.0\.0\.1|::1/);
    expect(cells[6]).toBe('name: checkout');
    await expectAccessible(page);
    await shoot(page, 'console-audit.png');
  });

  it('should add a member by e-mail and remove them after a confirmation, never oneself', async () => {
    await page.goto(`${base}/console#/members`);
    await main(page, 'members');
    await page.locator(`tr[data-member="${email}"]`, { hasText: '(du)' }).waitFor();
    expect(await page.locator(`tr[data-member="${email}"] button`).count()).toBe(0);
    await page.getByLabel('E-postadress, eller mobilnummer som +46…').fill('Eve@Console.Example');
    await page.getByRole('button', { name: 'Lägg till', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'eve@console.example är inbjuden' }).waitFor();
    await page.locator('tr[data-member="eve@console.example"]', { hasText: 'inbjuden' }).waitFor();
    await expectAccessible(page);
    await shoot(page, 'console-members.png');

    await page
      .locator('tr[data-member="eve@console.example"]')
      .getByRole('button', { name: /Ta bort/ })
      .click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Ja, ta bort' }).click();
    await page.locator('tr[data-member="eve@console.example"]').waitFor({ state: 'detached' });

    await page.goto(`${base}/console#/audit`);
    await page.locator('tr[data-action="member.removed"]').waitFor();
    await page.locator('tr[data-action="member.added"]').waitFor();
    await page.locator('tr[data-action="console.login"]', { hasText: email }).waitFor();
    expect(cspViolations).toEqual([]);
  });
});
