import { DataSource, type DataSourceOptions, type QueryRunner, type ReplicationMode } from 'typeorm';
import { EmbeddedDatabaseInUseError, EmbeddedPostgres, embeddedDatabaseUrl } from './embedded-postgres.js';
import { MIGRATIONS } from './migrations.js';
import { sharedRunnerOf } from './unit-of-work.js';
import { installTimestamptzParser } from './timestamptz-parser.js';

/** The features' entities, composed at the application root (src/app.entities.ts): src/database/ imports no feature. */
export type DatabaseEntities = NonNullable<DataSourceOptions['entities']>;

export interface DatabaseTarget {
  entities: DatabaseEntities;
  /** A PostgreSQL URL; without one the embedded database under dataDir is used. */
  url?: string;
  dataDir: string;
  /**
   * When another process (the running service) already serves the embedded database, connect to it
   * instead of failing: this is how the CLI works beside a running server.
   */
  joinRunningEmbedded?: boolean;
  poolSize?: number;
  /** Each statement's deadline on a PostgreSQL server (docs/reliability.md); none when unset. */
  queryTimeoutMs?: number;
}

/** The one DataSource type of the app, the CLI and the tests; it owns the embedded server if any. */
export class AppDataSource extends DataSource {
  constructor(
    options: DataSourceOptions,
    readonly embedded: EmbeddedPostgres | null,
    /** Connected to the embedded database another process serves: that process migrates it. */
    readonly joinedRunningEmbedded = false,
  ) {
    super(options);
  }

  /** Inside a unit of work (`inOneTransaction`), every query runs on its transaction. */
  override createQueryRunner(mode: ReplicationMode = 'master'): QueryRunner {
    return sharedRunnerOf(this) ?? super.createQueryRunner(mode);
  }

  override async destroy(): Promise<void> {
    if (this.isInitialized) await super.destroy();
    await this.embedded?.close();
  }
}

/**
 * A statement that runs past the deadline is cancelled by the server (statement_timeout: SQLSTATE
 * 57014, the connection stays usable); one whose answer never comes back (a partition, a half-open
 * connection) is given up by node-postgres a second later (query_timeout). Either answers 503.
 */
function queryDeadlines(queryTimeoutMs: number | undefined): Record<string, number> {
  return queryTimeoutMs ? { statement_timeout: queryTimeoutMs, query_timeout: queryTimeoutMs + 1_000 } : {};
}

export function dataSourceOptions(entities: DatabaseEntities, url: string, poolSize = 10, queryTimeoutMs?: number): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    poolSize,
    extra: {
      // Every timestamp is stored and compared in UTC.
      options: '-c TimeZone=UTC',
      // A database that does not answer must not hold a request for ever (docs/reliability.md): a new
      // connection, or a wait for a free one in the pool, gives up after 3 s (the API answers 503 well
      // within REQUEST_TIMEOUT). Not TCP keep-alive: with it on, the webhook dispatcher's test lost
      // claims (test/service/webhook-dispatcher.spec.ts); half-open connections are left (reliability.md).
      connectionTimeoutMillis: 3_000,
      ...queryDeadlines(queryTimeoutMs),
    },
  };
}

export async function createDataSource(target: DatabaseTarget): Promise<AppDataSource> {
  let url = target.url;
  let embedded: EmbeddedPostgres | null = null;
  let joined = false;
  if (!url) {
    try {
      embedded = await EmbeddedPostgres.open(target.dataDir);
      url = embedded.url;
    } catch (error) {
      if (!(error instanceof EmbeddedDatabaseInUseError) || !target.joinRunningEmbedded) throw error;
      url = embeddedDatabaseUrl(target.dataDir);
      joined = true;
    }
  }
  // One connection per process on the embedded database: pglite-socket interleaves the wire messages
  // of concurrent connections outside transactions, which can bind a statement to another
  // connection's parameters (electric-sql/pglite#1046). PGlite runs one statement at a time anyway.
  const poolSize = embedded || joined ? 1 : target.poolSize;
  // PGlite serves one statement at a time in this process; the deadlines are for a server's network and locks.
  const queryTimeoutMs = embedded || joined ? undefined : target.queryTimeoutMs;
  installTimestamptzParser();
  const dataSource = new AppDataSource(dataSourceOptions(target.entities, url, poolSize, queryTimeoutMs), embedded, joined);
  try {
    await dataSource.initialize();
  } catch (error) {
    await embedded?.close();
    throw error;
  }
  return dataSource;
}

/**
 * The same database without statement deadlines, for the migrations: the advisory-lock wait of a
 * replica that starts while another migrates, and an index build, may rightly take longer. The
 * caller destroys it. Null when `dataSource` has no deadlines.
 */
export function withoutQueryDeadlines(dataSource: DataSource): DataSource | null {
  const extra = (dataSource.options as { extra?: Record<string, unknown> }).extra ?? {};
  if (!('statement_timeout' in extra)) return null;
  const { statement_timeout: _statement, query_timeout: _query, ...rest } = extra;
  return new DataSource({ ...dataSource.options, extra: rest, poolSize: 2 } as DataSourceOptions);
}
