import type { DataSource } from 'typeorm';
import { withoutQueryDeadlines, type AppDataSource } from './data-source.js';

// Any constant shared by every replica: "eidgwmig" in ASCII.
const MIGRATION_LOCK_KEY = 0x6569_6467_776d_6967n;

/**
 * Runs pending migrations under a session-level advisory lock, so replicas starting together
 * apply each migration exactly once: the others wait, then find nothing left to do.
 * Returns the names of the migrations this call applied.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const lockHolder = dataSource.createQueryRunner();
  await lockHolder.connect();
  try {
    await lockHolder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await lockHolder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
    }
  } finally {
    await lockHolder.release();
  }
}

/** True when every migration this build knows has been applied. */
export async function migrationsUpToDate(dataSource: DataSource): Promise<boolean> {
  return !(await dataSource.showMigrations());
}

const JOIN_WAIT_MS = 60_000;

/**
 * Brings the schema up to date before anything uses it. On the embedded database served by another
 * process, that process is the only migrator: PGlite is a single backend session, so an advisory lock
 * cannot keep two migrators apart there; a joining process waits until the server has finished.
 */
export async function prepareSchema(dataSource: AppDataSource): Promise<string[]> {
  // The process that owns the embedded database is its only user: no lock needed (and with its
  // single connection, a lock holder would leave none for the migrations).
  if (dataSource.embedded) return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  if (!dataSource.joinedRunningEmbedded) {
    const migrator = withoutQueryDeadlines(dataSource);
    if (!migrator) return runMigrationsLocked(dataSource);
    await migrator.initialize();
    try {
      return await runMigrationsLocked(migrator);
    } finally {
      await migrator.destroy();
    }
  }
  const deadline = Date.now() + JOIN_WAIT_MS;
  while (!(await migrationsUpToDate(dataSource))) {
    if (Date.now() > deadline) throw new Error('The running server has not finished migrating the embedded database.');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return [];
}
