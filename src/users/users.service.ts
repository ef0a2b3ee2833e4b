import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { isUuid } from '../common/validation/is-uuid.js';
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

  /**
   * A new member of the team (docs/console.md, "Members"). Contacts are unique across teams, since a
   * contact names the one user a login code goes to: one already in use answers 409 member_exists.
   */
  async addMember(teamId: string, contact: { email?: string; phone?: string }): Promise<User> {
    if (contact.email && (await this.users.findByContact(null, { email: contact.email }))) throw memberExists();
    if (contact.phone && (await this.users.findByContact(null, { phone: contact.phone }))) throw memberExists();
    try {
      return await this.create({ teamId, ...contact });
    } catch (error) {
      // Two adds of the same contact at once: the unique index (uq_users_email, uq_users_phone) decides.
      if ((error as { code?: string }).code === '23505') throw memberExists();
      throw error;
    }
  }

  /** Removes a member of the team; a member cannot remove themselves (a team keeps at least the caller). */
  async removeMember(teamId: string, id: string, callerId: string): Promise<User> {
    if (id === callerId) throw new DomainException('cannot_remove_self', 'You cannot remove yourself; ask another member.');
    const member = isUuid(id) ? await this.users.findInTeam(teamId, id) : null;
    if (!member || !(await this.users.deleteFromTeam(teamId, id))) throw new DomainException('not_found', `No member ${id}.`);
    return member;
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

const memberExists = () => new DomainException('member_exists', 'That e-mail address or phone number belongs to a member already.');
