import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type EntityManager, type Repository } from 'typeorm';
import { PreparedSelect } from '../database/prepared-select.js';
import { statement } from '../database/statement.js';
import { Team } from './team.entity.js';

const lockSql = statement<[id: string]>(`SELECT 1 FROM teams WHERE id = $1 FOR UPDATE`);

/** Every statement on teams. */
@Injectable()
export class TeamStore {
  // Every OpenID token and userinfo request checks its client's team (docs/oidc.md, "Plans"): a hot read.
  private readonly byId: PreparedSelect<Team>;

  constructor(@InjectRepository(Team) private readonly teams: Repository<Team>) {
    this.byId = new PreparedSelect(teams.manager.connection, Team, 'id = $1');
  }

  insert(team: Omit<Team, 'createdAt'>): Promise<Team> {
    return this.teams.save(this.teams.create(team));
  }

  findById(id: string): Promise<Team | null> {
    return this.byId.one([id]);
  }

  async lockForUpdate(id: string, manager: EntityManager): Promise<void> {
    await lockSql.run(manager, id);
  }

  list(): Promise<Team[]> {
    return this.teams.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async isEmpty(): Promise<boolean> {
    return !(await this.teams.exists());
  }

  /** The plan and extra features of these teams; read in the caller's transaction when given. */
  plansOf(teamIds: string[], manager: EntityManager = this.teams.manager): Promise<Pick<Team, 'id' | 'plan' | 'extraFeatures'>[]> {
    return manager.find(Team, { where: { id: In(teamIds) }, select: { id: true, plan: true, extraFeatures: true } });
  }
}
