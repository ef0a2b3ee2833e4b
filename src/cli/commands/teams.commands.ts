import { Option, type Command } from 'commander';
import { PLANS, type Plan } from '../../teams/plans.js';
import { teamView } from '../../teams/team-view.js';
import { isoDate, list, uuid } from '../cli-args.js';
import { recordAsOperator } from '../cli-audit.js';
import type { CliRuntime } from '../cli-runtime.js';

const teamsService = () => import('../../teams/teams.service.js').then((module) => module.TeamsService);

export function addTeamCommands(program: Command, cli: CliRuntime): void {
  const teams = program.command('teams').description('Teams: the customers, each with a plan and a subscription');

  teams
    .command('create')
    .description('Create a team; without --subscription-until it has no subscription and its keys answer 403')
    .requiredOption('--name <name>', 'the team name')
    .addOption(new Option('--plan <plan>', 'the plan (default: free)').choices(PLANS))
    .option('--features <list>', 'extra features beyond the plan, comma-separated', list())
    .option('--subscription-until <iso>', 'when the subscription ends (ISO 8601)', isoDate)
    .action(async (options: { name: string; plan?: Plan; features?: string[]; subscriptionUntil?: Date }) => {
      const team = await (
        await cli.service(teamsService)
      ).create({
        name: options.name,
        plan: options.plan,
        extraFeatures: options.features,
        subscriptionEndsAt: options.subscriptionUntil,
      });
      await recordAsOperator(cli, {
        teamId: team.id,
        action: 'team.created',
        targetId: team.id,
        details: { name: team.name, plan: team.plan },
      });
      cli.answer(teamView(team));
    });

  teams
    .command('list')
    .description('All teams, oldest first (an array)')
    .action(async () => cli.answer((await (await cli.service(teamsService)).list()).map(teamView)));

  teams
    .command('show')
    .description('One team')
    .requiredOption('--id <id>', 'the team id', uuid)
    .action(async (options: { id: string }) => cli.answer(teamView(await (await cli.service(teamsService)).get(options.id))));
}
