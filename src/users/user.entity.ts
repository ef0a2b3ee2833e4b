import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Team } from '../teams/team.entity.js';

/** A team member: logs in with an OTP sent to the e-mail address or phone number. */
@Entity('users')
export class User {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'team_id' })
  teamId: string;

  @ManyToOne(() => Team, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id' })
  team?: Team;

  @Column('text', { nullable: true })
  email: string | null;

  /** E.164, e.g. +46701234567. */
  @Column('text', { nullable: true })
  phone: string | null;

  /** Owners add and remove members (docs/console.md, "Members"); a team's first member is its owner. */
  @Column('text', { default: 'member' })
  role: MemberRole;

  /** The first login; null while the member is only invited. */
  @Column('timestamptz', { name: 'joined_at', nullable: true })
  joinedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

export type MemberRole = 'owner' | 'member';
