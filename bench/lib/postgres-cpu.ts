import pg from 'pg';
import { cpuTimeMs } from './processes.js';

/**
 * CPU time of the PostgreSQL backends that serve one database, read from /proc (the server runs on
 * this machine). Backends of the bench's baseline server (application_name 'bench-baseline') and of
 * the bench's own checks are told apart by application_name; WAL writer, checkpointer and autovacuum
 * are not counted: they work for every database on the shared server.
 */
export class PostgresBackendCpu {
  private readonly client: pg.Client;

  constructor(databaseUrl: string) {
    this.client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench-monitor' });
  }

  async connect(): Promise<void> {
    await this.client.connect();
  }

  async close(): Promise<void> {
    await this.client.end();
  }

  /** Per backend pid, its CPU ms so far; `of` picks the application: 'service' is every other client of the database. */
  async snapshot(of: 'service' | 'bench-baseline' | 'bench-check'): Promise<Map<number, number>> {
    const { rows } = await this.client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND backend_type = 'client backend'
          AND CASE WHEN $1 = 'service' THEN application_name NOT LIKE 'bench-%' ELSE application_name = $1 END`,
      [of],
    );
    return new Map(rows.map((r) => [r.pid, cpuTimeMs(r.pid, false)]));
  }

  /** CPU ms the backends of `before`'s kind spent since it was taken (backends opened meanwhile count whole). */
  async since(of: 'service' | 'bench-baseline' | 'bench-check', before: Map<number, number>): Promise<number> {
    const after = await this.snapshot(of);
    let total = 0;
    for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
    return total;
  }
}
