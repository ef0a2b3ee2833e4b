import type { Command } from 'commander';
import { databaseConfig } from '../../config/database.config.js';
import { createDataSource } from '../../database/data-source.js';
import { prepareSchema } from '../../database/migrate.js';
import type { CliRuntime } from '../cli-runtime.js';

export function addMigrateCommand(program: Command, cli: CliRuntime): void {
  program
    .command('migrate')
    .description('Apply pending migrations under the advisory lock and print their names (the service also does this at start)')
    .action(async () => {
      const config = databaseConfig();
      const dataSource = await createDataSource({ url: config.url, dataDir: config.dataDir, joinRunningEmbedded: true, poolSize: 2 });
      try {
        cli.answer({ applied: await prepareSchema(dataSource) });
      } finally {
        await dataSource.destroy();
      }
    });
}
