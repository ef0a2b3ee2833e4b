import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CounterLinksService } from '../../../src/idcard/counter-links.service.js';
import { accessibilityViolations, describeInBrowser, launchChromium } from '../../support/browser.js';
import { useE2eApp } from '../../support/e2e.js';
import { writeQrVideo } from '../../support/qr-video.js';

describeInBrowser('The counter page in a browser (headless Chromium): a scanner typing the code, and the camera', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    browser = await launchChromium();
    dir = await mkdtemp(join(tmpdir(), 'counter-camera-'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });
  const e2e = useE2eApp({ listen: true, withKey: true });

  /** A counter link of the team for the simulator's cards: the page's path with the token in its fragment. */
  const counterLink = async () => {
    const created = await e2e.app.get(CounterLinksService).create(e2e.team.id, { label: 'Till 1', provider: 'simulator' });
    const url = new URL(created.url);
    return `${e2e.baseUrl}${url.pathname}${url.hash}`;
  };
  /** The holder shows a card in the simulated app: its code. */
  const showIdCard = async (personalNumber: string) => {
    const page = await e2e.http.post('/simulator/app/idcard').type('form').send({ personalNumber }).expect(200);
    return /data-qr-code="(BANKIDF\.[^"]+)"/.exec(page.text)![1];
  };
  const answerOf = async (page: Page) => {
    await page.waitForSelector('main[data-state="green"], main[data-state="red"]');
    return {
      state: await page.locator('main').getAttribute('data-state'),
      verdict: await page.locator('#verdict').textContent(),
      holder: await page.locator('#holder').textContent(),
      age: await page.locator('#age').textContent(),
    };
  };

  it('should show a large green answer with the name and age for a code a scanner types, in Swedish, accessibly', async () => {
    const link = await counterLink();
    const code = await showIdCard('199001011239');
    const page = await browser.newPage({ locale: 'sv-SE' });
    try {
      await page.goto(link);
      expect(page.url()).not.toContain('#t=');
      await page.locator('#code').fill(code);
      await page.locator('#code').press('Enter');

      expect(await answerOf(page)).toEqual({
        state: 'green',
        verdict: 'Giltigt ID-kort',
        holder: 'Tess Testsson',
        age: expect.stringMatching(/^\d+ år$/),
      });
      expect(await accessibilityViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('should show red, in English, for a code verified once already', async () => {
    const link = await counterLink();
    const code = await showIdCard('199001011239');
    await e2e.http.post('/api/v1/idcard/simulator/verify').set('x-api-key', e2e.key).send({ qrCode: code }).expect(200);
    const page = await browser.newPage({ locale: 'en-GB' });
    try {
      await page.goto(link);
      await page.locator('#code').fill(code);
      await page.locator('#code').press('Enter');

      expect(await answerOf(page)).toMatchObject({ state: 'red', verdict: expect.stringContaining('expired or was used') });
    } finally {
      await page.close();
    }
  });

  it("should read the card's QR from the camera", async () => {
    const link = await counterLink();
    const code = await showIdCard('200001151234');
    const video = join(dir, 'card.y4m');
    await writeQrVideo(video, code);
    const camera = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${video}`,
      ],
    });
    try {
      const context = await camera.newContext({ locale: 'sv-SE', permissions: ['camera'] });
      const page = await context.newPage();
      await page.goto(link);

      expect(await answerOf(page)).toMatchObject({ state: 'green', holder: 'Tess Testsson' });
    } finally {
      await camera.close();
    }
  });
});
