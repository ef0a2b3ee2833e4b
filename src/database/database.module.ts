import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseConfig, type DatabaseConfig } from '../config/database.config.js';
import { createDataSource, dataSourceOptions, type DatabaseEntities } from './data-source.js';
import { DatabaseHealth } from './database-health.js';
import { prepareSchema } from './migrate.js';

export interface DatabaseModuleOptions {
  entities: DatabaseEntities;
  /** For the CLI: use the running service's embedded database instead of refusing to open it. */
  joinRunningEmbedded?: boolean;
  poolSize?: number;
}

/** The DataSource of the process, migrated before anything uses it. */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [databaseConfig.KEY],
          useFactory: (config: DatabaseConfig) => ({
            ...dataSourceOptions(options.entities, config.url ?? ''),
            dataDir: config.dataDir,
            queryTimeoutMs: config.queryTimeoutMs,
            // Fail fast: an orchestrator restarts the process, and tests must not wait out retries.
            retryAttempts: 0,
          }),
          // Built here rather than by TypeORM from the options so that it can own the embedded server.
          dataSourceFactory: async (factoryOptions) => {
            const { url, dataDir, queryTimeoutMs } = factoryOptions as unknown as { url: string; dataDir: string; queryTimeoutMs: number };
            const dataSource = await createDataSource({ url: url || undefined, dataDir, queryTimeoutMs, ...options });
            await prepareSchema(dataSource);
            return dataSource;
          },
        }),
      ],
      // Each feature module registers the repositories of its own entities (TypeOrmModule.forFeature).
      providers: [DatabaseHealth],
      exports: [DatabaseHealth],
    };
  }
}
