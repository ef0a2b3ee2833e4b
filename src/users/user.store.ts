import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Raw, type Repository } from 'typeorm';
import type { Team } from '../teams/team.entity.js';
import { User } from './user.entity.js';

/** Every statement on users. */
@Injectable()
export class UserStore {
  constructor(@InjectRepository(User) private readonly users: Repository<User>) {}

  insert(user: Omit<User, 'createdAt' | 'team'>): Promise<User> {
    return this.users.save(this.users.create(user));
  }

  /** The member of the team with every given contact detail (e-mail compared case-insensitively), or null. */
  /** Null team: any team's member (contacts are unique across teams). */
  findByContact(teamId: string | null, contact: { email?: string; phone?: string }): Promise<User | null> {
    return this.users.findOneBy({
      ...(teamId ? { teamId } : {}),
      ...(contact.email ? { email: Raw((column) => `lower(${column}) = lower(:email)`, { email: contact.email }) } : {}),
      ...(contact.phone ? { phone: contact.phone } : {}),
    });
  }

  listForTeam(teamId: string): Promise<User[]> {
    return this.users.find({ where: { teamId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findInTeam(teamId: string, id: string): Promise<User | null> {
    return this.users.findOneBy({ id, teamId });
  }

  /** Deletes a member of the team; false when the team has no such member. */
  async deleteFromTeam(teamId: string, id: string): Promise<boolean> {
    const result = await this.users.delete({ id, teamId });
    return (result.affected ?? 0) > 0;
  }

  findWithTeam(id: string): Promise<(User & { team: Team }) | null> {
    return this.users.findOne({ where: { id }, relations: { team: true } }) as Promise<(User & { team: Team }) | null>;
  }
}
