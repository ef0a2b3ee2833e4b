import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { featuresOf, type Plan } from './plans.js';
import type { Team } from './team.entity.js';
import { TeamStore } from './team.store.js';

export interface CreateTeamInput {
  name: string;
  plan?: Plan;
  extraFeatures?: string[];
  /** Undefined: no subscription. Null: a subscription that does not end. */
  subscriptionEndsAt?: Date | null;
}

@Injectable()
export class TeamsService {
  constructor(private readonly teams: TeamStore) {}

  create(input: CreateTeamInput): Promise<Team> {
    return this.teams.insert({
      id: randomUUID(),
      name: input.name,
      plan: input.plan ?? 'free',
      extraFeatures: input.extraFeatures ?? [],
      hasSubscription: input.subscriptionEndsAt !== undefined,
      subscriptionEndsAt: input.subscriptionEndsAt ?? null,
    });
  }

  async get(id: string): Promise<Team> {
    const team = await this.teams.findById(id);
    if (!team) throw new DomainException('not_found', `No team ${id}.`);
    return team;
  }

  /** Locks the team's row until the caller's transaction ends: orders concurrent changes of one team. */
  lockForUpdate(id: string, manager: EntityManager): Promise<void> {
    return this.teams.lockForUpdate(id, manager);
  }

  /** Every team, oldest first: the operator's view (the command line), not a client's. */
  list(): Promise<Team[]> {
    return this.teams.list();
  }

  /** Of these teams, those whose plan or extra features include `feature`; read in the caller's transaction when given. */
  async withFeature(teamIds: string[], feature: string, manager?: EntityManager): Promise<Set<string>> {
    const teams = await this.teams.plansOf(teamIds, manager);
    return new Set(teams.filter((team) => featuresOf(team).has(feature)).map((team) => team.id));
  }

  isEmpty(): Promise<boolean> {
    return this.teams.isEmpty();
  }
}
