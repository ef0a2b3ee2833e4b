import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EidProvider } from '../eid-providers/eid-provider.js';
import { browserMessageTable } from '../eid-providers/user-messages.js';
import { EID_QR_WORDS } from './eid-qr-words.js';

export interface KioskAsset {
  body: Buffer;
  contentType: string;
  /** A short content hash: the page links `?v=` it, so a new release is never served from an old cache. */
  version: string;
}

const here = dirname(fileURLToPath(import.meta.url));
// The page draws the QR itself with qrcode-generator's ES module (MIT, no dependencies), served from here.
const qrcodeGenerator = join(dirname(createRequire(import.meta.url).resolve('qrcode-generator')), 'qrcode.mjs');

const JAVASCRIPT = 'text/javascript; charset=utf-8';
const FILES: Record<string, { path: string; contentType: string }> = {
  'kiosk.js': { path: join(here, 'assets', 'kiosk.js'), contentType: JAVASCRIPT },
  'eid-qr.js': { path: join(here, 'assets', 'eid-qr.js'), contentType: JAVASCRIPT },
  'kiosk.css': { path: join(here, 'assets', 'kiosk.css'), contentType: 'text/css; charset=utf-8' },
  'qrcode.mjs': { path: qrcodeGenerator, contentType: JAVASCRIPT },
};

const asset = (body: Buffer, contentType: string): KioskAsset => ({
  body,
  contentType,
  version: createHash('sha256').update(body).digest('hex').slice(0, 12),
});

// Each provider's user messages and app name, written out from the tables poll answers use, so
// <eid-qr> says what a poll answer says in the session's provider's words (docs/kiosk.md).
const userMessagesModule = (providers: readonly Pick<EidProvider, 'name' | 'messages'>[]) => {
  const tables = Object.fromEntries(providers.map((provider) => [provider.name, browserMessageTable(provider.messages)]));
  return Buffer.from(`export const providers = ${JSON.stringify(tables)};\n`);
};

// Which file imports which (by the specifier written in it): the import is pinned to the imported file's
// version, so a cached module never meets an older or newer neighbour after a release.
const IMPORTS: [file: string, specifier: string, imported: string][] = [
  ['eid-qr.js', './assets/qrcode.mjs', 'qrcode.mjs'],
  ['eid-qr.js', './assets/user-messages.js', 'user-messages.js'],
  ['eid-qr.js', './assets/eid-qr-words.js', 'eid-qr-words.js'],
  ['kiosk.js', '../eid-qr.js', 'eid-qr.js'],
];

/** The kiosk page's and `<eid-qr>`'s few static files, read once at start (they are small and never change while running). */
export function loadKioskAssets(providers: readonly Pick<EidProvider, 'name' | 'messages'>[]): Map<string, KioskAsset> {
  const assets = new Map(Object.entries(FILES).map(([name, { path, contentType }]) => [name, asset(readFileSync(path), contentType)]));
  assets.set('user-messages.js', asset(userMessagesModule(providers), JAVASCRIPT));
  assets.set('eid-qr-words.js', asset(Buffer.from(`export const WORDS = ${JSON.stringify(EID_QR_WORDS)};\n`), JAVASCRIPT));
  for (const [file, specifier, imported] of IMPORTS) {
    const text = assets.get(file)!.body.toString('utf8');
    const pinned = text.replace(`'${specifier}'`, `'${specifier}?v=${assets.get(imported)!.version}'`);
    assets.set(file, asset(Buffer.from(pinned), JAVASCRIPT));
  }
  return assets;
}
