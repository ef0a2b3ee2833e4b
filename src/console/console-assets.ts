import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OWN_FILES, pageHeaders } from '../common/html/html-page.js';

export interface ConsoleAsset {
  body: Buffer;
  contentType: string;
}

export interface ConsoleBuild {
  /** The page; null when the front-end was not built (`npm run build` builds it). */
  index: Buffer | null;
  /** Vite's hashed files under assets/, by name. */
  assets: Map<string, ConsoleAsset>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The folder holding package.json: src/console under the tests, dist/src/console when built. */
function packageRoot(from: string): string {
  let folder = from;
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error('package.json not found above the console module');
    folder = parent;
  }
  return folder;
}

/** The built console (dist/console, made by Vite from console/), read once at start: it never changes while running. */
export function loadConsoleBuild(): ConsoleBuild {
  const root = join(packageRoot(dirname(fileURLToPath(import.meta.url))), 'dist', 'console');
  const indexPath = join(root, 'index.html');
  if (!existsSync(indexPath)) return { index: null, assets: new Map() };
  const assetsDir = join(root, 'assets');
  const assets = new Map<string, ConsoleAsset>();
  for (const name of existsSync(assetsDir) ? readdirSync(assetsDir) : []) {
    const contentType = CONTENT_TYPES[extname(name)];
    if (contentType) assets.set(name, { body: readFileSync(join(assetsDir, name)), contentType });
  }
  return { index: readFileSync(indexPath), assets };
}

/** The page's headers: our own files only (Vite's bundle), no inline script or style, no framing, nothing cached. */
export const CONSOLE_PAGE_HEADERS: Record<string, string> = pageHeaders({ allow: OWN_FILES });
