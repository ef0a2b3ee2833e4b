import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface KioskAsset {
  body: Buffer;
  contentType: string;
  /** A short content hash: the page links `?v=` it, so a new release is never served from an old cache. */
  version: string;
}

const here = dirname(fileURLToPath(import.meta.url));
// The page draws the QR itself with qrcode-generator's ES module (MIT, no dependencies), served from here.
const qrcodeGenerator = join(dirname(createRequire(import.meta.url).resolve('qrcode-generator')), 'qrcode.mjs');

const FILES: Record<string, { path: string; contentType: string }> = {
  'kiosk.js': { path: join(here, 'assets', 'kiosk.js'), contentType: 'text/javascript; charset=utf-8' },
  'kiosk.css': { path: join(here, 'assets', 'kiosk.css'), contentType: 'text/css; charset=utf-8' },
  'qrcode.mjs': { path: qrcodeGenerator, contentType: 'text/javascript; charset=utf-8' },
};

/** The kiosk page's few static files, read once at start (they are small and never change while running). */
export function loadKioskAssets(): Map<string, KioskAsset> {
  return new Map(
    Object.entries(FILES).map(([name, { path, contentType }]) => {
      const body = readFileSync(path);
      return [name, { body, contentType, version: createHash('sha256').update(body).digest('hex').slice(0, 12) }];
    }),
  );
}
