// Part of `npm run build`: the embedded database's seed (src/database/embedded-seed.ts), made again
// only when the PGlite version or the list of migrations changes. A seed older than the build costs
// only speed: the service applies whatever migrations it lacks, as on any start.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EMBEDDED_SEED } from '../dist/src/database/embedded-postgres.js';
import { writeEmbeddedSeed } from '../dist/src/database/embedded-seed.js';
import { ENTITIES } from '../dist/src/app.entities.js';
import { MIGRATIONS } from '../dist/src/database/migrations.js';

const root = join(import.meta.dirname, '..');
const stamp = `${EMBEDDED_SEED}.json`;
const pglite = JSON.parse(readFileSync(join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')).version;
const wanted = JSON.stringify({ pglite, migrations: MIGRATIONS.map((migration) => migration.name) });

if (!existsSync(EMBEDDED_SEED) || !existsSync(stamp) || readFileSync(stamp, 'utf8') !== wanted) {
  mkdirSync(join(EMBEDDED_SEED, '..'), { recursive: true });
  await writeEmbeddedSeed(EMBEDDED_SEED, ENTITIES);
  writeFileSync(stamp, wanted);
}
