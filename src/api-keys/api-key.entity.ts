import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Team } from '../teams/team.entity.js';
import type { ApiKeyEnvironment } from './api-key-format.js';

/** The highest risk of a completion a key accepts; above it the session fails riskTooHigh (docs/api.md, "Risk"). */
export const API_KEY_MAX_RISKS = ['low', 'moderate'] as const;
export type ApiKeyMaxRisk = (typeof API_KEY_MAX_RISKS)[number];

export const API_KEY_SCOPES = ['sessions:read', 'sessions:write', 'otp'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

@Entity('api_keys')
export class ApiKey {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'team_id' })
  teamId: string;

  @ManyToOne(() => Team, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id' })
  team?: Team;

  @Column('text', { nullable: true })
  name: string | null;

  @Column('text')
  environment: ApiKeyEnvironment;

  /** SHA-256 of the whole key; the key itself is shown once and never stored. */
  @Column('bytea', { name: 'key_hash', select: false })
  keyHash: Buffer;

  /** `eidk_test_Ab12…wxyz` style: prefix and last four characters identify a key in listings. */
  @Column('text', { name: 'display_prefix' })
  displayPrefix: string;

  @Column('text', { name: 'last_four' })
  lastFour: string;

  @Column('text', { array: true })
  scopes: ApiKeyScope[];

  @Column('timestamptz', { name: 'valid_until', nullable: true })
  validUntil: Date | null;

  @Column('timestamptz', { name: 'blocked_until', nullable: true })
  blockedUntil: Date | null;

  @Column('integer', { name: 'per_minute_limit', nullable: true })
  perMinuteLimit: number | null;

  @Column('integer', { name: 'monthly_limit', nullable: true })
  monthlyLimit: number | null;

  /** Distinct client IP addresses per calendar month (UTC). */
  @Column('integer', { name: 'ip_limit', nullable: true })
  ipLimit: number | null;

  @Column('text', { name: 'max_risk', nullable: true })
  maxRisk: ApiKeyMaxRisk | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;

  /** Written only by ApiKeyLastUseStore, in batches (docs/security.md, "Last used"); saving the entity never touches it. */
  @Column({ type: 'timestamptz', name: 'last_used_at', nullable: true, insert: false, update: false })
  lastUsedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
