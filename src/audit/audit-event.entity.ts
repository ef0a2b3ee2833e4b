import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';

/** A team member through the management API, or the operator at the command line. */
export type AuditActorType = 'member' | 'operator';

/** One management action (docs/audit.md). Rows are never updated. */
@Entity('audit_events')
export class AuditEvent {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'team_id' })
  teamId: string;

  /** The environment of what changed (a key, an endpoint); null for team-wide actions. */
  @Column('text', { nullable: true })
  environment: ApiKeyEnvironment | null;

  @Column('timestamptz', { name: 'occurred_at' })
  occurredAt: Date;

  @Column('text', { name: 'actor_type' })
  actorType: AuditActorType;

  /** The member's user id; null for the operator. */
  @Column('uuid', { name: 'actor_id', nullable: true })
  actorId: string | null;

  /** The member's e-mail or phone as it was then (the user may be gone later). */
  @Column('text', { name: 'actor_label', nullable: true })
  actorLabel: string | null;

  /** e.g. api_key.revoked (docs/audit.md lists them). */
  @Column('text')
  action: string;

  @Column('text', { name: 'target_type' })
  targetType: string;

  @Column('text', { name: 'target_id', nullable: true })
  targetId: string | null;

  /** A few non-secret facts of the change (a name, the fields changed); never a secret or personal number. */
  @Column('jsonb', { nullable: true })
  details: Record<string, unknown> | null;

  @Column('text', { name: 'client_address', nullable: true })
  clientAddress: string | null;
}
