import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgres } from './embedded-postgres.js';

describe(EmbeddedPostgres.name, () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'eidgw-pg-'));
  });

  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  // PGlite writes its files 0666: the directory that holds them must keep everyone else out.
  // One case: a directory an older version left 0755 (a new one is made 0700 by the same code).
  it('should keep the database files to their owner, even in a directory an older version made 0755', async () => {
    await mkdir(join(dataDir, 'pgdata'), { mode: 0o755 });
    const db = await EmbeddedPostgres.open(dataDir);
    try {
      expect((await stat(join(dataDir, 'pgdata'))).mode & 0o077).toBe(0);
    } finally {
      await db.close();
    }
  });
});
