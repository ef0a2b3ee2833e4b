import { Option, type Command } from 'commander';
import { API_KEY_ENVIRONMENTS, type ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../webhooks/webhook-event-types.js';
import { list, uuid } from '../cli-args.js';
import { recordAsOperator } from '../cli-audit.js';
import type { CliRuntime } from '../cli-runtime.js';

interface CreateEndpointOptions {
  team: string;
  url: string;
  env?: ApiKeyEnvironment;
  events?: WebhookEventType[];
  description?: string;
}

const endpointsService = () => import('../../webhooks/webhook-endpoints.service.js').then((module) => module.WebhookEndpointsService);

export function addWebhookCommands(program: Command, cli: CliRuntime): void {
  const webhooks = program.command('webhooks').description('Webhook endpoints that receive session events (docs/webhooks.md)');

  webhooks
    .command('create')
    .description('Add an endpoint; its signing `secret` is printed this once')
    .requiredOption('--team <id>', 'the team id', uuid)
    .requiredOption('--url <url>', 'where events are POSTed (http or https)')
    .addOption(new Option('--env <env>', 'environment whose events it receives (default: test)').choices(API_KEY_ENVIRONMENTS))
    .option(
      '--events <list>',
      `comma-separated, of ${WEBHOOK_EVENT_TYPES.join(', ')} (default: the completed and failed ones)`,
      list(WEBHOOK_EVENT_TYPES),
    )
    .option('--description <text>', 'a note for the team')
    .action(async (options: CreateEndpointOptions) => {
      const { endpoint, secret } = await (
        await cli.service(endpointsService)
      ).create(options.team, {
        url: options.url,
        environment: options.env,
        eventTypes: options.events,
        description: options.description,
      });
      await recordAsOperator(cli, {
        teamId: options.team,
        action: 'webhook_endpoint.created',
        targetId: endpoint.id,
        environment: endpoint.environment,
        details: { url: endpoint.url, eventTypes: endpoint.eventTypes },
      });
      cli.answer({ ...endpoint, secret });
    });

  webhooks
    .command('list')
    .description("A team's endpoints (an array; never a secret)")
    .requiredOption('--team <id>', 'the team id', uuid)
    .action(async (options: { team: string }) => cli.answer(await (await cli.service(endpointsService)).list(options.team)));

  webhooks
    .command('rotate-secret')
    .description('A new signing secret, printed this once; the old one keeps signing for a grace period')
    .requiredOption('--id <id>', 'the endpoint id', uuid)
    .action(async (options: { id: string }) => {
      const endpoints = await cli.service(endpointsService);
      const teamId = await endpoints.teamOf(options.id);
      const { endpoint, secret } = await endpoints.rotateSecret(teamId, options.id);
      await recordAsOperator(cli, {
        teamId,
        action: 'webhook_endpoint.secret_rotated',
        targetId: endpoint.id,
        environment: endpoint.environment,
        details: { url: endpoint.url },
      });
      cli.answer({ ...endpoint, secret });
    });
}
