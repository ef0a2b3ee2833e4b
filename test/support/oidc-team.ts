// A team of its own per test, with OIDC clients registered through the management API as a member
// would: a test may then end the team's subscription or change its plan without touching the others.
import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Plan } from '../../src/teams/plans.js';
import { TeamsService } from '../../src/teams/teams.service.js';
import { TokensService } from '../../src/tokens/tokens.service.js';
import { UsersService } from '../../src/users/users.service.js';
import type { Http } from './e2e.js';

export interface RegisteredClient {
  id: string;
  clientId: string;
  clientSecret: string | null;
}

export async function oidcTeam(app: INestApplicationContext, http: () => Http, plan: Plan = 'pro') {
  const team = await app.get(TeamsService).create({ name: `team-${randomUUID().slice(0, 8)}`, plan, subscriptionEndsAt: null });
  const user = await app.get(UsersService).create({ teamId: team.id, email: `member-${randomUUID()}@example.com` });
  const bearer = `Bearer ${(await app.get(TokensService).issue({ userId: user.id, teamId: team.id, clientId: 'test' })).token}`;
  return {
    team,
    bearer,
    async register(body: Record<string, unknown>): Promise<RegisteredClient> {
      const created = await http().post('/api/v1/oidc-clients').set('authorization', bearer).send(body).expect(201);
      return created.body as RegisteredClient;
    },
    /** The operator's changes of a team (the billing side): its subscription ends, or its plan changes. */
    async endSubscription(): Promise<void> {
      await app.get(DataSource).query(`UPDATE teams SET subscription_ends_at = now() - interval '1 minute' WHERE id = $1`, [team.id]);
    },
    async changePlan(to: Plan): Promise<void> {
      await app.get(DataSource).query(`UPDATE teams SET plan = $2 WHERE id = $1`, [team.id, to]);
    },
  };
}
