#!/usr/bin/env node
// `npx eid-gateway …` and `npm run cli -- …`: runs the built command line, never builds it (docs/operations.md).
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/src/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write('eid-gateway: the command line is not built yet; run `npm run build` first.\n');
  process.exit(1);
}
// Node 22 and later keep the compiled code of the loaded modules on disk, so later calls start faster.
module.enableCompileCache?.();
await import(cli);
