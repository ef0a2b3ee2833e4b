import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Raw, type Repository } from 'typeorm';
import { TeamsService } from '../teams/teams.service.js';
import type { Team } from '../teams/team.entity.js';
import { User } from './user.entity.js';

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly teams: TeamsService,
  ) {}

  async create(input: { teamId: string; email?: string; phone?: string }): Promise<User> {
    await this.teams.get(input.teamId);
    return this.users.save(
      this.users.create({
        id: randomUUID(),
        teamId: input.teamId,
        email: input.email?.toLowerCase() ?? null,
        phone: input.phone ?? null,
      }),
    );
  }

  /** The team's members, oldest first. */
  listForTeam(teamId: string): Promise<User[]> {
    return this.users.find({ where: { teamId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * The member of the team (null: of any team; contacts are unique across teams) with every given
   * contact detail (e-mail compared case-insensitively), or null.
   */
  findByContact(teamId: string | null, contact: { email?: string; phone?: string }): Promise<User | null> {
    if (!contact.email && !contact.phone) return Promise.resolve(null);
    return this.users.findOneBy({
      ...(teamId ? { teamId } : {}),
      ...(contact.email ? { email: Raw((column) => `lower(${column}) = lower(:email)`, { email: contact.email }) } : {}),
      ...(contact.phone ? { phone: contact.phone } : {}),
    });
  }

  /** A user with its team loaded, or null. */
  findWithTeam(id: string): Promise<(User & { team: Team }) | null> {
    return this.users.findOne({ where: { id }, relations: { team: true } }) as Promise<(User & { team: Team }) | null>;
  }
}
