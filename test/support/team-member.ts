// A member of a team with a bearer token, as a person signed in to the console is: what the management
// API asks of whoever registers OIDC clients, SAML service providers or webhook endpoints. A team of its
// own per test lets that test end the team's subscription or change its plan without touching the others.
import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Plan } from '../../src/teams/plans.js';
import type { Team } from '../../src/teams/team.entity.js';
import { TeamsService } from '../../src/teams/teams.service.js';
import { TokensService } from '../../src/tokens/tokens.service.js';
import { UsersService } from '../../src/users/users.service.js';

export interface TeamMember {
  team: Team;
  /** The member's `Authorization` header value. */
  bearer: string;
}

/** A new member of `team`, with a token. */
export async function memberOf(app: INestApplicationContext, team: Team): Promise<TeamMember> {
  const user = await app.get(UsersService).create({ teamId: team.id, email: `member-${randomUUID()}@example.com` });
  const bearer = `Bearer ${(await app.get(TokensService).issue({ userId: user.id, teamId: team.id, clientId: 'test' })).token}`;
  return { team, bearer };
}

/** A new team on `plan` with a subscription that does not end, and a member of it. */
export async function teamOfItsOwn(app: INestApplicationContext, plan: Plan = 'pro') {
  const team = await app.get(TeamsService).create({ name: `team-${randomUUID().slice(0, 8)}`, plan, subscriptionEndsAt: null });
  return {
    ...(await memberOf(app, team)),
    /** The operator's changes of a team (the billing side): its subscription ends, or its plan changes. */
    async endSubscription(): Promise<void> {
      await app.get(DataSource).query(`UPDATE teams SET subscription_ends_at = now() - interval '1 minute' WHERE id = $1`, [team.id]);
    },
    async changePlan(to: Plan): Promise<void> {
      await app.get(DataSource).query(`UPDATE teams SET plan = $2 WHERE id = $1`, [team.id, to]);
    },
  };
}
