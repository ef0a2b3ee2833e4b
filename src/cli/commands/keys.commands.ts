import { Option, type Command } from 'commander';
import { API_KEY_ENVIRONMENTS, type ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { apiKeyView } from '../../api-keys/api-key-view.js';
import { API_KEY_MAX_RISKS, API_KEY_SCOPES, type ApiKeyMaxRisk, type ApiKeyScope } from '../../api-keys/api-key.entity.js';
import { isoDate, list, positiveInt, uuid } from '../cli-args.js';
import { recordAsOperator } from '../cli-audit.js';
import type { CliRuntime } from '../cli-runtime.js';

interface CreateKeyOptions {
  team: string;
  name?: string;
  env?: ApiKeyEnvironment;
  scopes?: ApiKeyScope[];
  perMinute?: number;
  monthly?: number;
  ipLimit?: number;
  maxRisk?: ApiKeyMaxRisk;
  validUntil?: Date;
}

const apiKeysService = () => import('../../api-keys/api-keys.service.js').then((module) => module.ApiKeysService);
const teamsService = () => import('../../teams/teams.service.js').then((module) => module.TeamsService);

export function addKeyCommands(program: Command, cli: CliRuntime): void {
  const keys = program.command('keys').description("API keys: a team's credentials for the API");

  keys
    .command('create')
    .description('Create a key; its secret `key` is printed this once and never again')
    .requiredOption('--team <id>', 'the team id', uuid)
    .option('--name <name>', 'a name to recognise the key by')
    .addOption(new Option('--env <env>', 'environment (default: test)').choices(API_KEY_ENVIRONMENTS))
    .option(
      '--scopes <list>',
      `comma-separated, of ${API_KEY_SCOPES.join(', ')} (default: sessions:read,sessions:write)`,
      list(API_KEY_SCOPES),
    )
    .option('--per-minute <n>', 'requests per minute', positiveInt)
    .option('--monthly <n>', 'requests per calendar month', positiveInt)
    .option('--ip-limit <n>', 'requests per minute from one client IP', positiveInt)
    .addOption(
      new Option('--max-risk <level>', 'the highest risk a completion may have; above it the session fails riskTooHigh').choices(
        API_KEY_MAX_RISKS,
      ),
    )
    .option('--valid-until <iso>', 'when the key expires (ISO 8601)', isoDate)
    .action(async (options: CreateKeyOptions) => {
      const { apiKey, key } = await (
        await cli.service(apiKeysService)
      ).create({
        teamId: options.team,
        name: options.name,
        environment: options.env,
        scopes: options.scopes,
        perMinuteLimit: options.perMinute,
        monthlyLimit: options.monthly,
        ipLimit: options.ipLimit,
        maxRisk: options.maxRisk,
        validUntil: options.validUntil,
      });
      await recordAsOperator(cli, {
        teamId: apiKey.teamId,
        action: 'api_key.created',
        targetId: apiKey.id,
        environment: apiKey.environment,
        details: { name: apiKey.name, scopes: apiKey.scopes },
      });
      cli.answer({ ...apiKeyView(apiKey), key });
    });

  keys
    .command('list')
    .description("A team's keys, newest first, revoked ones included (an array; never a secret)")
    .requiredOption('--team <id>', 'the team id', uuid)
    .action(async (options: { team: string }) => {
      await (await cli.service(teamsService)).get(options.team);
      cli.answer((await (await cli.service(apiKeysService)).listForTeam(options.team)).map(apiKeyView));
    });

  keys
    .command('block')
    .description('Refuse a key with 403 api_key_blocked until a time')
    .requiredOption('--id <id>', 'the key id', uuid)
    .requiredOption('--until <iso>', 'the end of the block (ISO 8601)', isoDate)
    .action(async (options: { id: string; until: Date }) => {
      const apiKey = await (await cli.service(apiKeysService)).block(options.id, options.until);
      await recordAsOperator(cli, {
        teamId: apiKey.teamId,
        action: 'api_key.blocked',
        targetId: apiKey.id,
        environment: apiKey.environment,
        details: { until: options.until.toISOString() },
      });
      cli.answer(apiKeyView(apiKey));
    });

  keys
    .command('revoke')
    .description('Revoke a key for good')
    .requiredOption('--id <id>', 'the key id', uuid)
    .action(async (options: { id: string }) => {
      const apiKey = await (await cli.service(apiKeysService)).revoke(options.id);
      await recordAsOperator(cli, {
        teamId: apiKey.teamId,
        action: 'api_key.revoked',
        targetId: apiKey.id,
        environment: apiKey.environment,
        details: { name: apiKey.name },
      });
      cli.answer(apiKeyView(apiKey));
    });
}
