import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { API_KEY_ENVIRONMENTS } from '../api-keys/api-key-format.js';
import { apiKeyView } from '../api-keys/api-key-view.js';
import { API_KEY_SCOPES } from '../api-keys/api-key.entity.js';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { databaseConfig } from '../config/database.config.js';
import { ConfigValidationError } from '../config/env.validation.js';
import { createDataSource } from '../database/data-source.js';
import { prepareSchema } from '../database/migrate.js';
import { PLANS } from '../teams/plans.js';
import { teamView } from '../teams/team-view.js';
import { TeamsService } from '../teams/teams.service.js';
import { SigningKeysService } from '../tokens/signing-keys.service.js';
import { UsersService } from '../users/users.service.js';
import { WebhookEndpointsService } from '../webhooks/webhook-endpoints.service.js';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/webhook-event-types.js';
import { CliModule } from './cli.module.js';
import { contact, oneOf, optionalDate, optionalList, optionalPositiveInt, required, UsageError } from './cli-args.js';

export interface CliResult {
  exitCode: number;
  output: Record<string, unknown>;
}

type Flags = Record<string, string | undefined>;
type Command = { flags: string[]; run: (flags: Flags, app: () => Promise<INestApplicationContext>) => Promise<Record<string, unknown>> };

const COMMANDS: Record<string, Command> = {
  'teams create': {
    flags: ['name', 'plan', 'features', 'subscription-until'],
    run: async (flags, app) => {
      const team = await (await app()).get(TeamsService).create({
        name: required(flags, 'name'),
        plan: oneOf(flags.plan, 'plan', PLANS),
        extraFeatures: optionalList(flags, 'features'),
        subscriptionEndsAt: optionalDate(flags, 'subscription-until'),
      });
      return teamView(team);
    },
  },
  'users create': {
    flags: ['team', 'email', 'phone'],
    run: async (flags, app) => {
      const teamId = required(flags, 'team');
      const user = await (await app()).get(UsersService).create({ teamId, ...contact(flags) });
      return { id: user.id, teamId: user.teamId, email: user.email, phone: user.phone, createdAt: user.createdAt };
    },
  },
  'keys create': {
    flags: ['team', 'name', 'env', 'scopes', 'per-minute', 'monthly', 'ip-limit', 'valid-until'],
    run: async (flags, app) => {
      const { apiKey, key } = await (await app()).get(ApiKeysService).create({
        teamId: required(flags, 'team'),
        name: flags.name,
        environment: oneOf(flags.env, 'env', API_KEY_ENVIRONMENTS),
        scopes: optionalList(flags, 'scopes', API_KEY_SCOPES),
        perMinuteLimit: optionalPositiveInt(flags, 'per-minute'),
        monthlyLimit: optionalPositiveInt(flags, 'monthly'),
        ipLimit: optionalPositiveInt(flags, 'ip-limit'),
        validUntil: optionalDate(flags, 'valid-until'),
      });
      return { ...apiKeyView(apiKey), key };
    },
  },
  'keys block': {
    flags: ['id', 'until'],
    run: async (flags, app) => {
      const until = optionalDate(flags, 'until');
      if (!until) throw new UsageError('--until is required');
      return apiKeyView(await (await app()).get(ApiKeysService).block(required(flags, 'id'), until));
    },
  },
  'keys revoke': {
    flags: ['id'],
    run: async (flags, app) => apiKeyView(await (await app()).get(ApiKeysService).revoke(required(flags, 'id'))),
  },
  'tokens rotate-key': {
    flags: [],
    run: async (_flags, app) => {
      const rotated = await (await app()).get(SigningKeysService).rotate();
      return { kid: rotated.kid, alg: rotated.alg, retired: rotated.retired };
    },
  },
  'webhooks create': {
    flags: ['team', 'url', 'env', 'events', 'description'],
    run: async (flags, app) => {
      const { endpoint, secret } = await (await app()).get(WebhookEndpointsService).create(required(flags, 'team'), {
        url: required(flags, 'url'),
        environment: oneOf(flags.env, 'env', API_KEY_ENVIRONMENTS),
        eventTypes: optionalList(flags, 'events', WEBHOOK_EVENT_TYPES),
        description: flags.description,
      });
      return { ...endpoint, secret };
    },
  },
  'webhooks list': {
    flags: ['team'],
    run: async (flags, app) => ({ endpoints: await (await app()).get(WebhookEndpointsService).list(required(flags, 'team')) }),
  },
  'webhooks rotate-secret': {
    flags: ['id'],
    run: async (flags, app) => {
      const endpoints = (await app()).get(WebhookEndpointsService);
      const id = required(flags, 'id');
      const { endpoint, secret } = await endpoints.rotateSecret(await endpoints.teamOf(id), id);
      return { ...endpoint, secret };
    },
  },
  migrate: {
    flags: [],
    run: async () => {
      const config = databaseConfig();
      const dataSource = await createDataSource({ url: config.url, dataDir: config.dataDir, joinRunningEmbedded: true, poolSize: 2 });
      try {
        return { applied: await prepareSchema(dataSource) };
      } finally {
        await dataSource.destroy();
      }
    },
  },
};

/** `eid-gateway <group> <command> [--flags]` → one JSON object; never prints a stack trace. */
export async function runCli(argv: string[]): Promise<CliResult> {
  let context: INestApplicationContext | undefined;
  try {
    const name = argv[0] === 'migrate' ? 'migrate' : `${argv[0] ?? ''} ${argv[1] ?? ''}`;
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`Unknown command "${name.trim()}". Commands: ${Object.keys(COMMANDS).join('; ')}`);
    const rest = argv.slice(name.split(' ').length);
    const { values } = parseArgs({
      args: rest,
      options: Object.fromEntries(command.flags.map((flag) => [flag, { type: 'string' as const }])),
      strict: true,
      allowPositionals: false,
    });
    const app = async () => (context ??= await NestFactory.createApplicationContext(CliModule, { logger: false, abortOnError: false }));
    return { exitCode: 0, output: await command.run(values, app) };
  } catch (error) {
    return { exitCode: error instanceof UsageError || isParseArgsError(error) ? 2 : 1, output: { error: describe(error) } };
  } finally {
    await context?.close();
  }
}

function describe(error: unknown): { code: string; message: string } {
  if (error instanceof DomainException) return { code: error.code, message: error.message };
  if (error instanceof UsageError || isParseArgsError(error)) return { code: 'usage', message: (error as Error).message };
  if (error instanceof ConfigValidationError) return { code: 'config', message: error.message };
  return { code: 'error', message: error instanceof Error ? error.message : String(error) };
}

const isParseArgsError = (error: unknown) => (error as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS') ?? false;
