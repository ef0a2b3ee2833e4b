import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { API_KEY_SCOPES } from '../api-keys/api-key.entity.js';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { databaseConfig, type DatabaseConfig } from '../config/database.config.js';
import { TeamsService } from '../teams/teams.service.js';

export const DEV_KEY_FILE = 'dev-api-key';

/**
 * On the first start of an empty embedded database, create a `dev` team and a test key so that a
 * newcomer can call the API at once (docs/operations.md). Never on a real database: production teams are made
 * deliberately, with the CLI.
 */
@Injectable()
export class FirstStartService implements OnApplicationBootstrap {
  private readonly logger = new Logger(FirstStartService.name);

  constructor(
    @Inject(databaseConfig.KEY) private readonly config: DatabaseConfig,
    private readonly teams: TeamsService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.url || !(await this.teams.isEmpty())) return;
    const team = await this.teams.create({ name: 'dev', plan: 'enterprise', subscriptionEndsAt: null });
    const { key } = await this.apiKeys.create({ teamId: team.id, name: 'dev', environment: 'test', scopes: [...API_KEY_SCOPES] });
    const file = join(this.config.dataDir, DEV_KEY_FILE);
    await writeFile(file, `${key}\n`, { mode: 0o600 });
    // The key goes to the terminal once, outside the structured log, so log shipping never carries it.
    process.stdout.write(`\n  Created team "dev" with a test API key (shown once; also in ${file}):\n\n    ${key}\n\n`);
    this.logger.log({ teamId: team.id, file }, 'First start: created the dev team and its test API key');
  }
}
