import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { AuditLog } from '../audit/audit-log.service.js';
import type { UserPrincipal } from '../auth/principal.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { isUuid } from '../common/validation/is-uuid.js';
import { TeamsService } from '../teams/teams.service.js';
import type { Team } from '../teams/team.entity.js';
import { MemberInvitationStore, type MemberInvitation } from './member-invitation.store.js';
import type { MemberRole, User } from './user.entity.js';
import { UserStore } from './user.store.js';

/** A member or an invitation, as the members API shows both (docs/console.md, "Members"). */
export interface MemberView {
  id: string;
  email: string | null;
  phone: string | null;
  role: MemberRole;
  /** `invited` until the first login; an invitation of a contact that belongs elsewhere stays `invited`. */
  status: 'invited' | 'joined';
  createdAt: Date;
}

/** The member who adds or removes, and from where: the audit entry's actor. */
export interface MemberChange {
  principal: UserPrincipal;
  clientAddress: string | null;
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UserStore,
    private readonly invitations: MemberInvitationStore,
    private readonly teams: TeamsService,
    private readonly audit: AuditLog,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** A user of the team; the team's first is its owner unless a role is given. */
  async create(input: { teamId: string; email?: string; phone?: string; role?: MemberRole }, manager?: EntityManager): Promise<User> {
    await this.teams.get(input.teamId);
    const role = input.role ?? ((await this.users.countInTeam(input.teamId)) === 0 ? 'owner' : 'member');
    return this.users.insert(
      { id: randomUUID(), teamId: input.teamId, email: input.email?.toLowerCase() ?? null, phone: input.phone ?? null, role },
      manager,
    );
  }

  /**
   * Invites a contact (docs/console.md, "Members"): owners only. A contact of this team's members or
   * invitations answers 409 member_exists; any other gets the same answer, an invited member, whether
   * it becomes one (a new user, who joins at the first login) or belongs to a user elsewhere (contacts
   * are unique across teams, since a contact names the one user a login code goes to): then only an
   * invitation is kept, which never joins. The change and its audit entry commit together.
   */
  async addMember(change: MemberChange, contact: { email?: string; phone?: string }): Promise<MemberView> {
    assertOwner(change.principal);
    const email = contact.email?.toLowerCase();
    const teamId = change.principal.team.id;
    const attempt = () =>
      this.dataSource.transaction(async (manager) => {
        const holderIn = async (team: string | null) =>
          (email ? await this.users.findByContact(team, { email }, manager) : null) ??
          (contact.phone ? await this.users.findByContact(team, { phone: contact.phone }, manager) : null);
        if ((await holderIn(teamId)) || (await this.invitations.existsInTeam(manager, teamId, { email, phone: contact.phone })))
          throw memberExists();
        const member = (await holderIn(null))
          ? invitationView(
              await this.invitations.insert(manager, { id: randomUUID(), teamId, email: email ?? null, phone: contact.phone ?? null }),
            )
          : memberView(await this.create({ teamId, email, phone: contact.phone, role: 'member' }, manager));
        await this.recordChange(manager, change, 'member.added', member);
        return member;
      });
    try {
      return await attempt();
    } catch (error) {
      // The contact was taken at the same moment (uq_users_email, uq_users_phone): now it is someone's.
      if ((error as { code?: string }).code === '23505') return attempt();
      throw error;
    }
  }

  /** Removes a member or an invitation of the team: owners only, never themselves. */
  async removeMember(change: MemberChange, id: string): Promise<MemberView> {
    assertOwner(change.principal);
    if (id === change.principal.user.id) throw new DomainException('cannot_remove_self', 'You cannot remove yourself; ask another owner.');
    const teamId = change.principal.team.id;
    return this.dataSource.transaction(async (manager) => {
      let removed: MemberView | null = null;
      if (isUuid(id)) {
        const member = await this.users.findInTeam(teamId, id, manager);
        if (member && (await this.users.deleteFromTeam(teamId, id, manager))) removed = memberView(member);
        const invitation = removed ? null : await this.invitations.deleteFromTeam(manager, teamId, id);
        if (invitation) removed = invitationView(invitation);
      }
      if (!removed) throw new DomainException('not_found', `No member ${id}.`);
      await this.recordChange(manager, change, 'member.removed', removed);
      return removed;
    });
  }

  /** The team's members and invitations, oldest first. */
  async listMembers(teamId: string): Promise<MemberView[]> {
    const [members, invitations] = await Promise.all([
      this.users.listForTeam(teamId),
      this.invitations.listForTeam(this.dataSource, teamId),
    ]);
    return [...members.map(memberView), ...invitations.map(invitationView)].sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
    );
  }

  /** The first successful login of an invited member. */
  markJoined(userId: string, at: Date): Promise<void> {
    return this.users.markJoined(userId, at);
  }

  // The contact is the member's, so the entry names it: who was let in or out is the point of the entry.
  private recordChange(manager: EntityManager, change: MemberChange, action: 'member.added' | 'member.removed', member: MemberView) {
    return this.audit.record(
      {
        teamId: change.principal.team.id,
        action,
        actor: { kind: 'member', user: change.principal.user, clientAddress: change.clientAddress },
        targetId: member.id,
        details: { email: member.email, phone: member.phone },
      },
      manager,
    );
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

const memberExists = () =>
  new DomainException('member_exists', 'That e-mail address or phone number is already a member or invited to this team.');

function assertOwner(principal: UserPrincipal): void {
  if (principal.user.role !== 'owner') throw new DomainException('owner_required', "Only the team's owners add and remove members.");
}

const memberView = (user: User): MemberView => ({
  id: user.id,
  email: user.email,
  phone: user.phone,
  role: user.role,
  status: user.joinedAt ? 'joined' : 'invited',
  createdAt: user.createdAt,
});

const invitationView = (invitation: MemberInvitation): MemberView => ({
  id: invitation.id,
  email: invitation.email,
  phone: invitation.phone,
  role: 'member',
  status: 'invited',
  createdAt: invitation.createdAt,
});
