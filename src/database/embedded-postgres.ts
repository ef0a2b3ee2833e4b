import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';

// Linux caps a Unix socket path at 108 bytes including the terminator.
const MAX_SOCKET_PATH = 107;
// Above the app's pool (10) plus a CLI and a psql beside it.
const MAX_CONNECTIONS = 32;

export class EmbeddedDatabaseInUseError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `The embedded database in ${dataDir} is already open in another process (a running eid-gateway?). ` +
        'Stop it, or use a different DATA_DIR.',
    );
    this.name = 'EmbeddedDatabaseInUseError';
  }
}

/** Where the embedded database listens; the CLI connects here when the service is running. */
export function embeddedSocketDir(dataDir: string): string {
  return join(dataDir, 'run');
}

export function embeddedDatabaseUrl(dataDir: string): string {
  return `postgres://postgres@localhost/postgres?host=${encodeURIComponent(embeddedSocketDir(dataDir))}`;
}

const socketPath = (dataDir: string) => join(embeddedSocketDir(dataDir), '.s.PGSQL.5432');

/** True when a process is serving the embedded database of dataDir right now. */
export function isEmbeddedDatabaseServing(dataDir: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(socketPath(dataDir));
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Where `npm run build` leaves the seed (src/database/embedded-seed.ts): dist/embedded, beside dist/src. */
export const EMBEDDED_SEED = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'embedded', 'pgdata.tar.gz');

/**
 * The packed, migrated data directory for a first start, when the build made one: unpacking it costs a
 * fraction of initdb and the migrations (docs/performance.md, "Start-up"). A folder that already holds
 * a database, or a run from the sources without a build, starts as before.
 */
async function seedFor(pgdata: string, seed: string): Promise<Blob | undefined> {
  if (existsSync(join(pgdata, 'PG_VERSION')) || !existsSync(seed)) return undefined;
  return new Blob([await readFile(seed)]);
}

/**
 * PostgreSQL in-process (PGlite) for `npm start` on a machine with nothing installed.
 *
 * The app does not talk to PGlite directly: PGlite is a single session, and sharing it between
 * TypeORM's query runners breaks transaction isolation (two open transactions were handed the same
 * row by SKIP LOCKED, and one's rollback undid the other's insert). Instead it is
 * served over a Unix socket by pglite-socket, which serialises transactions across connections,
 * and the app uses the ordinary `pg` driver exactly as against a real server.
 */
export class EmbeddedPostgres {
  private constructor(
    readonly dataDir: string,
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
  ) {}

  get url(): string {
    return embeddedDatabaseUrl(this.dataDir);
  }

  static async open(dataDir: string, seed = EMBEDDED_SEED): Promise<EmbeddedPostgres> {
    const path = socketPath(dataDir);
    if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
      throw new Error(`DATA_DIR is too long for the embedded database's Unix socket (${path}); choose a shorter path.`);
    }
    if (await isEmbeddedDatabaseServing(dataDir)) throw new EmbeddedDatabaseInUseError(dataDir);

    await mkdir(embeddedSocketDir(dataDir), { recursive: true, mode: 0o700 });
    // A socket file left by a crash would make listen() fail with EADDRINUSE.
    await rm(path, { force: true });
    // Loaded only here: a service on a real PostgreSQL never carries PGlite in memory.
    const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-socket')]);
    // PGlite writes its files 0666 whatever the umask: only the owner may enter the directory that holds
    // them, an older one included, or anyone on the host could rewrite the database (docs/security.md).
    const pgdata = join(dataDir, 'pgdata');
    await mkdir(pgdata, { recursive: true, mode: 0o700 });
    await chmod(pgdata, 0o700);
    const db = await PGlite.create({ dataDir: pgdata, loadDataDir: await seedFor(pgdata, seed) });
    const server = new PGLiteSocketServer({ db, path, maxConnections: MAX_CONNECTIONS });
    try {
      await server.start();
    } catch (error) {
      await db.close();
      throw error;
    }
    return new EmbeddedPostgres(dataDir, db, server);
  }

  async close(): Promise<void> {
    await this.server.stop();
    await this.db.close();
  }
}
