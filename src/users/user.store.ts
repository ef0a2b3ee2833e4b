import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Raw, type EntityManager, type Repository } from 'typeorm';
import type { Team } from '../teams/team.entity.js';
import { User } from './user.entity.js';

/** Every statement on users. `manager`: the caller's transaction, where a change and its audit entry go together. */
@Injectable()
export class UserStore {
  constructor(@InjectRepository(User) private readonly users: Repository<User>) {}

  insert(user: Omit<User, 'createdAt' | 'team' | 'joinedAt'>, manager?: EntityManager): Promise<User> {
    const users = this.repository(manager);
    return users.save(users.create(user));
  }

  /** The member of the team with every given contact detail (e-mail compared case-insensitively), or null. */
  /** Null team: any team's member (contacts are unique across teams). */
  findByContact(teamId: string | null, contact: { email?: string; phone?: string }, manager?: EntityManager): Promise<User | null> {
    return this.repository(manager).findOneBy({
      ...(teamId ? { teamId } : {}),
      ...(contact.email ? { email: Raw((column) => `lower(${column}) = lower(:email)`, { email: contact.email }) } : {}),
      ...(contact.phone ? { phone: contact.phone } : {}),
    });
  }

  countInTeam(teamId: string): Promise<number> {
    return this.users.countBy({ teamId });
  }

  listForTeam(teamId: string): Promise<User[]> {
    return this.users.find({ where: { teamId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findInTeam(teamId: string, id: string, manager?: EntityManager): Promise<User | null> {
    return this.repository(manager).findOneBy({ id, teamId });
  }

  /** Deletes a member of the team; false when the team has no such member. */
  async deleteFromTeam(teamId: string, id: string, manager?: EntityManager): Promise<boolean> {
    const result = await this.repository(manager).delete({ id, teamId });
    return (result.affected ?? 0) > 0;
  }

  /** The first login turns an invited member into a joined one. */
  async markJoined(id: string, at: Date): Promise<void> {
    await this.users.update({ id, joinedAt: IsNull() }, { joinedAt: at });
  }

  findWithTeam(id: string): Promise<(User & { team: Team }) | null> {
    return this.users.findOne({ where: { id }, relations: { team: true } }) as Promise<(User & { team: Team }) | null>;
  }

  private repository(manager?: EntityManager): Repository<User> {
    return manager ? manager.getRepository(User) : this.users;
  }
}
