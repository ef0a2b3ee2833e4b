import { Command, type OutputConfiguration } from 'commander';
import type { CliRuntime } from './cli-runtime.js';
import { addCounterLinkCommands } from './commands/counter-links.commands.js';
import { addKeyCommands } from './commands/keys.commands.js';
import { addMigrateCommand } from './commands/migrate.command.js';
import { addOidcClientCommands } from './commands/oidc-clients.commands.js';
import { addSamlServiceProviderCommands } from './commands/saml-service-providers.commands.js';
import { addTeamCommands } from './commands/teams.commands.js';
import { addTokenCommands } from './commands/tokens.commands.js';
import { addUserCommands } from './commands/users.commands.js';
import { addVerifyBundleCommand } from './commands/verify-bundle.command.js';
import { addWebhookCommands } from './commands/webhooks.commands.js';

/**
 * The command tree (docs/operations.md, "Command line"). Output and error handling are set before
 * the groups are added, because commander copies them to subcommands only as they are created.
 */
export function buildProgram(cli: CliRuntime, output: OutputConfiguration): Command {
  const program = new Command('eid-gateway')
    .description('Administer eid-gateway: each command prints one JSON value on stdout')
    .exitOverride()
    .configureOutput(output)
    .showHelpAfterError();
  addTeamCommands(program, cli);
  addUserCommands(program, cli);
  addKeyCommands(program, cli);
  addWebhookCommands(program, cli);
  addOidcClientCommands(program, cli);
  addSamlServiceProviderCommands(program, cli);
  addCounterLinkCommands(program, cli);
  addTokenCommands(program, cli);
  addMigrateCommand(program, cli);
  addVerifyBundleCommand(program, cli);
  return program;
}
