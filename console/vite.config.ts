import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The team console (docs/console.md): built to dist/console, which the service serves at /console.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // Everything in files: the page's CSP allows no inline script, style or data: URL.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
