import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { API_KEY_ENVIRONMENTS, type ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { uuid } from '../cli-args.js';
import { recordAsOperator } from '../cli-audit.js';
import type { CliRuntime } from '../cli-runtime.js';

interface CreateOptions {
  team: string;
  name: string;
  entityId: string;
  acsUrl: string[];
  signingCert: string;
  encryptionCert?: string;
  provider?: string[];
  env?: ApiKeyEnvironment;
}

const spService = () =>
  import('../../saml/service-providers/saml-service-providers.service.js').then((module) => module.SamlServiceProvidersService);
/** The same facts as the management routes' entries: the entityID and name. */
const auditFacts = (sp: { id: string; environment: string; entityId: string; name: string }) => ({
  targetId: sp.id,
  environment: sp.environment as ApiKeyEnvironment,
  details: { entityId: sp.entityId, name: sp.name },
});
const collect = (value: string, previous: string[] = []) => [...previous, value];

export function addSamlServiceProviderCommands(program: Command, cli: CliRuntime): void {
  const sps = program.command('saml-service-providers').description('SAML service providers of a team (docs/saml.md)');

  sps
    .command('create')
    .description('Register a service provider')
    .requiredOption('--team <id>', 'the team id', uuid)
    .requiredOption('--name <text>', 'the name the login page shows')
    .requiredOption('--entity-id <id>', "the SP's entityID")
    .requiredOption('--acs-url <url>', 'an exact AssertionConsumerService URL (repeat for more)', collect)
    .requiredOption('--signing-cert <file>', "the SP's signing certificate (a PEM file)")
    .option('--encryption-cert <file>', 'an encryption certificate (a PEM file): assertions are then encrypted')
    .option('--provider <name>', 'an e-ID provider the SP may use (repeat for more; default: all)', collect)
    .addOption(new Option('--env <env>', 'environment (default: test)').choices(API_KEY_ENVIRONMENTS))
    .action(async (options: CreateOptions) => {
      const created = await (
        await cli.service(spService)
      ).create(options.team, {
        name: options.name,
        entityId: options.entityId,
        acsUrls: options.acsUrl,
        signingCertificate: readFileSync(options.signingCert, 'utf8'),
        encryptionCertificate: options.encryptionCert ? readFileSync(options.encryptionCert, 'utf8') : null,
        providers: options.provider ?? null,
        environment: options.env,
      });
      await recordAsOperator(cli, { teamId: options.team, action: 'saml_service_provider.created', ...auditFacts(created) });
      cli.answer(created);
    });

  sps
    .command('list')
    .description("A team's service providers (an array)")
    .requiredOption('--team <id>', 'the team id', uuid)
    .action(async (options: { team: string }) => cli.answer(await (await cli.service(spService)).list(options.team)));

  sps
    .command('delete')
    .description('Delete a service provider')
    .requiredOption('--team <id>', 'the team id', uuid)
    .requiredOption('--id <id>', 'the service provider id', uuid)
    .action(async (options: { team: string; id: string }) => {
      const removed = await (await cli.service(spService)).remove(options.team, options.id);
      await recordAsOperator(cli, { teamId: options.team, action: 'saml_service_provider.deleted', ...auditFacts(removed) });
      cli.answer({ deleted: options.id });
    });
}
