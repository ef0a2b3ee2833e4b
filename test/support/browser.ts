import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

// Debian's chromium package (`apt-get install -y chromium`); CHROMIUM_PATH points elsewhere.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** `describe` where Chromium is installed; elsewhere one skipped test that says why. */
export function describeInBrowser(name: string, tests: () => void): void {
  if (existsSync(CHROMIUM)) return describe(name, tests);
  describe(name, () => {
    it.skip(`is skipped: no Chromium at ${CHROMIUM} (install it with "apt-get install -y chromium", or set CHROMIUM_PATH)`, () => {});
  });
}

/** Headless Chromium; Playwright gives every launch a fresh temporary profile, these flags keep it from calling home. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  /** The CSS selectors of the elements at fault. */
  targets: string[][];
}

/**
 * axe-core's WCAG 2.1 A and AA and best-practice findings on the page, run as an evaluated script (the
 * pages' CSP admits no injected script tag).
 */
export async function accessibilityViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    // What the function uses of the page (the tests compile without the DOM library).
    const inPage = globalThis as unknown as {
      document: unknown;
      axe: {
        run(
          context: unknown,
          options: object,
        ): Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }>;
      };
    };
    const result = await inPage.axe.run(inPage.document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target) }));
  });
}

/** A screenshot of the page kept in `folder` when one is set (the docs' pictures are made this way). */
export async function keepScreenshot(page: Page, folder: string | undefined, name: string, fullPage = true): Promise<void> {
  if (!folder) return;
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, name), await page.screenshot({ fullPage }));
}
