import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';

// Jest loads this file through require() without the ESM mapping of .js imports, so it is
// self-contained: it only decides where e2e tests run and names this run's databases.
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The newest modification time of the files under a folder. */
function newestChange(folder: string): number {
  return Math.max(
    ...readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs),
  );
}

/** The console tests need the built front-end (dist/console); build it when it is missing or older than its sources. */
function buildConsoleIfStale(): void {
  const root = join(__dirname, '..', '..');
  const built = join(root, 'dist', 'console', 'index.html');
  if (existsSync(built) && statSync(built).mtimeMs >= newestChange(join(root, 'console'))) return;
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', '--config', 'console/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
}

export default async function globalSetup(): Promise<void> {
  buildConsoleIfStale();
  let real = false;
  if (process.env.EIDGW_TEST_FORCE_PGLITE !== 'true') {
    const client = new Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 2_000 });
    try {
      client.on('error', () => undefined); // a terminated idle backend must not crash jest
      await client.connect();
      real = true;
    } catch {
      real = false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  process.env.EIDGW_TEST_POSTGRES = String(real);
  // Databases of this run carry its id, so runs side by side (or a crashed earlier one) never collide.
  process.env.EIDGW_TEST_RUN = randomBytes(4).toString('hex');
  if (!real) process.stdout.write('\n[tests] No PostgreSQL reachable: e2e tests run on embedded PGlite.\n');
}
