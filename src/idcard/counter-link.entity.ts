import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';

/** A counter link (docs/idcard.md): the capability to verify ID cards for one team and environment, kept as a hash of its token. */
@Entity('counter_links')
export class CounterLink {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'team_id' })
  teamId: string;

  @Column('text')
  environment: ApiKeyEnvironment;

  /** The e-ID provider whose ID cards the counter verifies. */
  @Column('text')
  provider: string;

  @Column('text')
  label: string;

  /** SHA-256 of the token: the token itself is shown once, at creation. */
  @Column('bytea', { name: 'token_hash' })
  tokenHash: Buffer;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;

  /** The link's own per-minute window (docs/idcard.md, "Counter links"). */
  @Column('timestamptz', { name: 'window_started_at', nullable: true })
  windowStartedAt: Date | null;

  @Column('integer', { name: 'window_count', default: 0 })
  windowCount: number;
}
