import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

// Debian's chromium package (`apt-get install -y chromium`); CHROMIUM_PATH points elsewhere.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
