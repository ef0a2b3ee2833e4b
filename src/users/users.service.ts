import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TeamsService } from '../teams/teams.service.js';
import type { Team } from '../teams/team.entity.js';
import type { User } from './user.entity.js';
import { UserStore } from './user.store.js';

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UserStore,
    private readonly teams: TeamsService,
  ) {}

  async create(input: { teamId: string; email?: string; phone?: string }): Promise<User> {
    await this.teams.get(input.teamId);
    return this.users.insert({
      id: randomUUID(),
      teamId: input.teamId,
      email: input.email?.toLowerCase() ?? null,
      phone: input.phone ?? null,
    });
  }

  /** The team's members, oldest first. */
  listForTeam(teamId: string): Promise<User[]> {
    return this.users.listForTeam(teamId);
  }

  /**
   * The member of the team (null: of any team; contacts are unique across teams) with every given
   * contact detail (e-mail compared case-insensitively), or null.
   */
  findByContact(teamId: string | null, contact: { email?: string; phone?: string }): Promise<User | null> {
    if (!contact.email && !contact.phone) return Promise.resolve(null);
    return this.users.findByContact(teamId, contact);
  }

  /** A user with its team loaded, or null. */
  findWithTeam(id: string): Promise<(User & { team: Team }) | null> {
    return this.users.findWithTeam(id);
  }
}
