import type { Command } from 'commander';
import { userView } from '../../users/user-view.js';
import { email, phone, uuid } from '../cli-args.js';
import { recordAsOperator } from '../cli-audit.js';
import type { CliRuntime } from '../cli-runtime.js';

const teamsService = () => import('../../teams/teams.service.js').then((module) => module.TeamsService);
const loginUnlock = () => import('../../console/login-unlock.service.js').then((module) => module.LoginUnlock);
const usersService = () => import('../../users/users.service.js').then((module) => module.UsersService);

export function addUserCommands(program: Command, cli: CliRuntime): void {
  const users = program.command('users').description('Team members, who log in to the console with a one-time code');

  users
    .command('create')
    .description('Add a member to a team (--email, --phone or both)')
    .requiredOption('--team <id>', 'the team id', uuid)
    .option('--email <address>', 'e-mail address', email)
    .option('--phone <e164>', 'phone number, E.164 (e.g. +46701234567)', phone)
    .option('--owner', "an owner, who adds and removes members (a team's first member is one anyway)")
    .action(async (options: { team: string; email?: string; phone?: string; owner?: boolean }, command: Command) => {
      if (!options.email && !options.phone) command.error('error: --email or --phone is required');
      const user = await (
        await cli.service(usersService)
      ).create({
        teamId: options.team,
        email: options.email,
        phone: options.phone,
        role: options.owner ? 'owner' : undefined,
      });
      await recordAsOperator(cli, { teamId: user.teamId, action: 'member.added', targetId: user.id });
      cli.answer(userView(user));
    });

  users
    .command('list')
    .description("A team's members, oldest first (an array)")
    .requiredOption('--team <id>', 'the team id', uuid)
    .action(async (options: { team: string }) => {
      await (await cli.service(teamsService)).get(options.team);
      cli.answer((await (await cli.service(usersService)).listForTeam(options.team)).map(userView));
    });

  users
    .command('unlock')
    .description("Let a member log in again: lift the OTP lockout and forget the console's wrong codes from every address")
    .requiredOption('--user <id>', 'the user id', uuid)
    .action(async (options: { user: string }) => {
      await (await cli.service(loginUnlock)).unlock(options.user);
      cli.answer({ userId: options.user, unlocked: true });
    });
}
