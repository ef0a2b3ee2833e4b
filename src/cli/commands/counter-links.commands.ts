import { Option, type Command } from 'commander';
import { API_KEY_ENVIRONMENTS, type ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { uuid } from '../cli-args.js';
import { recordAsOperator } from '../cli-audit.js';
import type { CliRuntime } from '../cli-runtime.js';

const linksService = () => import('../../idcard/counter-links.service.js').then((module) => module.CounterLinksService);
/** The same facts as the management routes' entries: the label and the provider, never the token. */
const auditFacts = (link: { id: string; environment: ApiKeyEnvironment; label: string; provider: string }) => ({
  targetId: link.id,
  environment: link.environment,
  details: { label: link.label, provider: link.provider },
});

export function addCounterLinkCommands(program: Command, cli: CliRuntime): void {
  const links = program.command('counter-links').description('Counter links that verify digital ID cards (docs/idcard.md)');

  links
    .command('create')
    .description('A counter link for one environment; its URL (with the token) is printed once')
    .requiredOption('--team <id>', 'the team id', uuid)
    .requiredOption('--label <text>', 'what the console lists it as, e.g. the till')
    .option('--provider <name>', 'the e-ID provider whose ID cards it verifies (default: bankid)')
    .addOption(new Option('--env <env>', 'environment (default: test)').choices(API_KEY_ENVIRONMENTS))
    .action(async (options: { team: string; label: string; provider?: string; env?: ApiKeyEnvironment }) => {
      const created = await (
        await cli.service(linksService)
      ).create(options.team, { label: options.label, provider: options.provider, environment: options.env });
      await recordAsOperator(cli, { teamId: options.team, action: 'counter_link.created', ...auditFacts(created) });
      cli.answer(created);
    });

  links
    .command('list')
    .description("A team's counter links (an array; never their tokens)")
    .requiredOption('--team <id>', 'the team id', uuid)
    .action(async (options: { team: string }) => cli.answer(await (await cli.service(linksService)).list(options.team)));

  links
    .command('revoke')
    .description('Revoke a counter link: its page refuses the next card')
    .requiredOption('--team <id>', 'the team id', uuid)
    .requiredOption('--id <id>', 'the counter link id', uuid)
    .action(async (options: { team: string; id: string }) => {
      const revoked = await (await cli.service(linksService)).revoke(options.team, options.id);
      await recordAsOperator(cli, { teamId: options.team, action: 'counter_link.revoked', ...auditFacts(revoked) });
      cli.answer(revoked);
    });
}
