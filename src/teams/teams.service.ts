import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type EntityManager, type Repository } from 'typeorm';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { featuresOf, type Plan } from './plans.js';
import { Team } from './team.entity.js';

export interface CreateTeamInput {
  name: string;
  plan?: Plan;
  extraFeatures?: string[];
  /** Undefined: no subscription. Null: a subscription that does not end. */
  subscriptionEndsAt?: Date | null;
}

@Injectable()
export class TeamsService {
  constructor(@InjectRepository(Team) private readonly teams: Repository<Team>) {}

  create(input: CreateTeamInput): Promise<Team> {
    return this.teams.save(
      this.teams.create({
        id: randomUUID(),
        name: input.name,
        plan: input.plan ?? 'free',
        extraFeatures: input.extraFeatures ?? [],
        hasSubscription: input.subscriptionEndsAt !== undefined,
        subscriptionEndsAt: input.subscriptionEndsAt ?? null,
      }),
    );
  }

  async get(id: string): Promise<Team> {
    const team = await this.teams.findOneBy({ id });
    if (!team) throw new DomainException('not_found', `No team ${id}.`);
    return team;
  }

  /** Of these teams, those whose plan or extra features include `feature`; read in the caller's transaction when given. */
  async withFeature(teamIds: string[], feature: string, manager: EntityManager = this.teams.manager): Promise<Set<string>> {
    const teams = await manager.find(Team, { where: { id: In(teamIds) }, select: { id: true, plan: true, extraFeatures: true } });
    return new Set(teams.filter((team) => featuresOf(team).has(feature)).map((team) => team.id));
  }

  async isEmpty(): Promise<boolean> {
    return !(await this.teams.exists());
  }
}
