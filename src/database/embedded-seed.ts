import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataSource, type DatabaseEntities } from './data-source.js';
import { prepareSchema } from './migrate.js';

/**
 * Writes the embedded database's seed to `seed`: a data directory made by PGlite's initdb and brought up
 * to this build's migrations, packed. A first start unpacks it instead of running initdb and every
 * migration (docs/performance.md, "Start-up"); `npm run build` makes it (scripts/build-embedded-seed.mjs).
 */
export async function writeEmbeddedSeed(seed: string, entities: DatabaseEntities): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'eidgw-seed-'));
  try {
    const dataSource = await createDataSource({ entities, dataDir });
    await prepareSchema(dataSource);
    await dataSource.destroy();
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create({ dataDir: join(dataDir, 'pgdata') });
    const packed = Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer());
    await db.close();
    // Renamed into place: a build stopped halfway leaves no truncated seed for a start to unpack.
    await writeFile(`${seed}.tmp`, packed);
    await rename(`${seed}.tmp`, seed);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
