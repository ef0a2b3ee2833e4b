import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { statement } from '../database/statement.js';
import type { Db } from '../database/sql-execution.js';

export interface MemberInvitation {
  id: string;
  teamId: string;
  email: string | null;
  phone: string | null;
  createdAt: Date;
}

const insertSql = statement<[id: string, teamId: string, email: string | null, phone: string | null], { created_at: Date }>(
  `INSERT INTO member_invitations (id, team_id, email, phone, created_at) VALUES ($1, $2, $3, $4, now()) RETURNING created_at`,
);
interface InvitationRow {
  id: string;
  team_id: string;
  email: string | null;
  phone: string | null;
  created_at: Date;
}

const listSql = statement<[teamId: string], InvitationRow>(
  `SELECT id, team_id, email, phone, created_at FROM member_invitations WHERE team_id = $1`,
);
const findByContactSql = statement<[teamId: string, email: string | null, phone: string | null], { id: string }>(
  `SELECT id FROM member_invitations WHERE team_id = $1 AND (lower(email) = lower($2) OR phone = $3) LIMIT 1`,
);
const deleteSql = statement<[teamId: string, id: string], InvitationRow>(
  `DELETE FROM member_invitations WHERE team_id = $1 AND id = $2 RETURNING id, team_id, email, phone, created_at`,
);

/**
 * Every statement on member_invitations: a team's invitations of contacts that belong to someone
 * elsewhere (docs/console.md, "Members"). They answer and list as any invitation, and never join.
 */
@Injectable()
export class MemberInvitationStore {
  /** Dated by the database, as users are, so that the list orders both alike. */
  async insert(manager: EntityManager, invitation: Omit<MemberInvitation, 'createdAt'>): Promise<MemberInvitation> {
    const { rows } = await insertSql.run(manager, invitation.id, invitation.teamId, invitation.email, invitation.phone);
    return { ...invitation, createdAt: rows[0].createdAt };
  }

  async listForTeam(db: Db, teamId: string): Promise<MemberInvitation[]> {
    return (await listSql.run(db, teamId)).rows;
  }

  async existsInTeam(db: Db, teamId: string, contact: { email?: string; phone?: string }): Promise<boolean> {
    return (await findByContactSql.run(db, teamId, contact.email ?? null, contact.phone ?? null)).rowCount > 0;
  }

  async deleteFromTeam(manager: EntityManager, teamId: string, id: string): Promise<MemberInvitation | null> {
    return (await deleteSql.run(manager, teamId, id)).rows[0] ?? null;
  }
}
