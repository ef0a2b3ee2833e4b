import { DataSource, type DataSourceOptions } from 'typeorm';
import { EmbeddedDatabaseInUseError, EmbeddedPostgres, embeddedDatabaseUrl } from './embedded-postgres.js';
import { ENTITIES, MIGRATIONS } from './entities.js';

export interface DatabaseTarget {
  /** A PostgreSQL URL; without one the embedded database under dataDir is used. */
  url?: string;
  dataDir: string;
  /**
   * When another process (the running service) already serves the embedded database, connect to it
   * instead of failing: this is how the CLI works beside a running server.
   */
  joinRunningEmbedded?: boolean;
  poolSize?: number;
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

  override async destroy(): Promise<void> {
    if (this.isInitialized) await super.destroy();
    await this.embedded?.close();
  }
}

export function dataSourceOptions(url: string, poolSize = 10): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
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
  const dataSource = new AppDataSource(dataSourceOptions(url, poolSize), embedded, joined);
  try {
    await dataSource.initialize();
  } catch (error) {
    await embedded?.close();
    throw error;
  }
  return dataSource;
}
