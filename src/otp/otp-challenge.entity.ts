import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The OTP state of one userGuid: the live code (only its keyed hash) and the per-user failure count.
 * A userGuid derived for an unknown phone or e-mail has a row too, with a hash no code matches, so
 * throttling, tries and lockout answer exactly as for a real user.
 */
@Entity('otp_challenges')
export class OtpChallenge {
  @PrimaryColumn('uuid', { name: 'user_guid' })
  userGuid: string;

  @Column('uuid', { name: 'user_id', nullable: true })
  userId: string | null;

  /** The user's team (or the asking key's): only that team's keys may validate. Null: an unknown contact at the console. */
  @Column('uuid', { name: 'team_id', nullable: true })
  teamId: string | null;

  @Column('bytea', { name: 'code_hmac', nullable: true, select: false })
  codeHmac: Buffer | null;

  @Column('timestamptz', { name: 'issued_at' })
  issuedAt: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  /** Validation tries on the current code. */
  @Column('integer')
  attempts: number;

  @Column('timestamptz', { name: 'used_at', nullable: true })
  usedAt: Date | null;

  /** Wrong codes since the last success or lockout, across codes. */
  @Column('integer')
  failures: number;

  @Column('timestamptz', { name: 'locked_until', nullable: true })
  lockedUntil: Date | null;

  /** Lockouts in a row, each within 24 h of the one before; each lasts twice the one before. */
  @Column('integer')
  lockouts: number;

  @Column('timestamptz', { name: 'last_locked_at', nullable: true })
  lastLockedAt: Date | null;
}
