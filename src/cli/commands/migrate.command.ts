import type { Command } from 'commander';
import type { CliRuntime } from '../cli-runtime.js';

export function addMigrateCommand(program: Command, cli: CliRuntime): void {
  program
    .command('migrate')
    .description('Apply pending migrations under the advisory lock and print their names (the service also does this at start)')
    .action(async () => {
      // Loaded here, not at the top, so that `--help` does not load the database layer.
      const [{ ENTITIES }, { databaseConfig }, { createDataSource }, { prepareSchema }] = await Promise.all([
        import('../../app.entities.js'),
        import('../../config/database.config.js'),
        import('../../database/data-source.js'),
        import('../../database/migrate.js'),
      ]);
      const config = databaseConfig();
      const dataSource = await createDataSource({
        entities: ENTITIES,
        url: config.url,
        dataDir: config.dataDir,
        joinRunningEmbedded: true,
        poolSize: 2,
      });
      try {
        cli.answer({ applied: await prepareSchema(dataSource) });
      } finally {
        await dataSource.destroy();
      }
    });
}
