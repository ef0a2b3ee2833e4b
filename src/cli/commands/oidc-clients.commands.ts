import { Option, type Command } from 'commander';
import { API_KEY_ENVIRONMENTS, type ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import {
  BACKCHANNEL_DELIVERY_MODES,
  TOKEN_ENDPOINT_AUTH_METHODS,
  type BackchannelDeliveryMode,
  type TokenEndpointAuthMethod,
} from '../../oidc/clients/oidc-client.js';
import { uuid } from '../cli-args.js';
import { recordAsOperator } from '../cli-audit.js';
import type { CliRuntime } from '../cli-runtime.js';

interface CreateClientOptions {
  team: string;
  name: string;
  redirectUri: string[];
  env?: ApiKeyEnvironment;
  authMethod?: TokenEndpointAuthMethod;
  ciba?: BackchannelDeliveryMode;
  notificationEndpoint?: string;
}

const clientsService = () => import('../../oidc/clients/oidc-clients.service.js').then((module) => module.OidcClientsService);
/** The same facts as the management routes' entries: the client_id and name, never the secret. */
const auditFacts = (client: { id: string; environment: ApiKeyEnvironment; clientId: string; name: string }) => ({
  targetId: client.id,
  environment: client.environment,
  details: { clientId: client.clientId, name: client.name },
});
const collect = (value: string, previous: string[] = []) => [...previous, value];

export function addOidcClientCommands(program: Command, cli: CliRuntime): void {
  const clients = program.command('oidc-clients').description('OpenID Connect clients of a team (docs/oidc.md)');

  clients
    .command('create')
    .description('Register a client; a client_secret_* client gets its `clientSecret` printed this once')
    .requiredOption('--team <id>', 'the team id', uuid)
    .requiredOption('--name <text>', 'the name the login page shows')
    .requiredOption('--redirect-uri <url>', 'an exact redirect URI (repeat for more)', collect)
    .addOption(new Option('--env <env>', 'environment (default: test)').choices(API_KEY_ENVIRONMENTS))
    .addOption(
      new Option('--auth-method <method>', 'token endpoint authentication (default: client_secret_basic)').choices(
        TOKEN_ENDPOINT_AUTH_METHODS,
      ),
    )
    .addOption(
      new Option('--ciba <mode>', 'CIBA token delivery (docs/oidc.md, "CIBA"); off by default').choices(BACKCHANNEL_DELIVERY_MODES),
    )
    .option('--notification-endpoint <url>', "ping mode: the client's notification endpoint (https)")
    .action(async (options: CreateClientOptions) => {
      const service = await cli.service(clientsService);
      const created = await service.create(options.team, {
        name: options.name,
        redirectUris: options.redirectUri,
        environment: options.env,
        tokenEndpointAuthMethod: options.authMethod,
        backchannelTokenDeliveryMode: options.ciba,
        backchannelClientNotificationEndpoint: options.notificationEndpoint,
      });
      await recordAsOperator(cli, { teamId: options.team, action: 'oidc_client.created', ...auditFacts(created) });
      cli.answer(created);
    });

  clients
    .command('list')
    .description("A team's clients (an array; never a secret)")
    .requiredOption('--team <id>', 'the team id', uuid)
    .action(async (options: { team: string }) => cli.answer(await (await cli.service(clientsService)).list(options.team)));

  clients
    .command('delete')
    .description('Delete a client: its tokens stop working at once')
    .requiredOption('--team <id>', 'the team id', uuid)
    .requiredOption('--id <id>', 'the client id (the uuid, not the client_id)', uuid)
    .action(async (options: { team: string; id: string }) => {
      const removed = await (await cli.service(clientsService)).remove(options.team, options.id);
      await recordAsOperator(cli, { teamId: options.team, action: 'oidc_client.deleted', ...auditFacts(removed) });
      cli.answer({ deleted: options.id });
    });
}
