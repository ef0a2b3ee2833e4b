import { performance } from 'node:perf_hooks';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { constantTimeEqual } from '../common/crypto/constant-time.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { ValidationProblemException } from '../common/problem-details/validation-problem.exception.js';
import { otpConfig, type OtpConfig } from '../config/otp.config.js';
import { TokensService } from '../tokens/tokens.service.js';
import { UsersService } from '../users/users.service.js';
import { DeliveryTiming } from './delivery/delivery-timing.js';
import { OtpDelivery, OtpDeliveryError, type OtpChannel } from './delivery/otp-delivery.js';
import type { LoginOtpValidateDto } from './dto/login-otp-validate.dto.js';
import type { LoginOtpDto } from './dto/login-otp.dto.js';
import { codeHmac, derivedUserGuid, generateCode, unmatchableHmac, zonelessUtc } from './otp-code.js';
import { OtpSecret } from './otp-secret.js';

export interface CodeIssued {
  userGuid: string;
  validationCodeValidUntilUtc: string;
}

export interface CodeValidated {
  userGuid: string;
  token: string;
  tokenExpiresAtUtc: string;
}

/**
 * Who asks for the login: an approved application (its API key's team and id), or the team console
 * (docs/console.md), which has no team until the user is known and names itself as the client.
 */
export interface OtpAudience {
  /** The team whose members may log in; null: any team's (the console). */
  teamId: string | null;
  /** The token's client_id claim. */
  clientId: string;
}

interface Contact {
  email?: string;
  phone?: string;
}

/**
 * The OTP login of SPEC 3.5. Every userGuid, a real user's or one derived for an unknown phone or
 * e-mail, goes through the same rows and statements, so throttling, tries and lockout cannot tell
 * them apart; only a real user is sent a code, and only a code sent can match.
 */
@Injectable()
export class OtpService {
  private readonly logger = new Logger(OtpService.name);
  private readonly timing = new DeliveryTiming();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly tokens: TokensService,
    private readonly delivery: OtpDelivery,
    private readonly secret: OtpSecret,
    private readonly clock: Clock,
    @Inject(otpConfig.KEY) private readonly config: OtpConfig,
  ) {}

  async requestCode(audience: OtpAudience, request: LoginOtpDto): Promise<CodeIssued> {
    const contact: Contact = { email: request.email?.toLowerCase(), phone: request.e164MobilePhoneNumber };
    const channel = this.channelFor(contact);
    const user = await this.users.findByContact(audience.teamId, contact);
    // A console challenge for an unknown contact belongs to no team (e-mail and phone are unique across teams).
    const teamId = user?.teamId ?? audience.teamId;
    const userGuid = user?.id ?? derivedUserGuid(this.secret.key, audience.teamId ?? 'console', contact);
    const code = user ? generateCode() : null;
    const hmac = code ? codeHmac(this.secret.key, userGuid, code) : unmatchableHmac();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.config.ttlMs);
    await this.storeCode({ userGuid, userId: user?.id ?? null, teamId, hmac, now, expiresAt });

    if (code) {
      await this.deliver(userGuid, hmac, { channel, to: channel === 'sms' ? contact.phone! : contact.email!, code });
    } else {
      await this.timing.imitate();
    }
    return { userGuid, validationCodeValidUntilUtc: zonelessUtc(expiresAt) };
  }

  async validateCode(audience: OtpAudience, request: LoginOtpValidateDto): Promise<CodeValidated> {
    const { userGuid } = request;
    const now = this.clock.now();
    // The try is counted in its own statement before the comparison (Kratos' order), so parallel
    // guesses cannot exceed the allowance under any isolation level.
    const [tried] = await this.updateReturning<{ code_hmac: Buffer; attempts: number }>(
      `UPDATE otp_challenges SET attempts = attempts + 1
        WHERE user_guid = $1 AND ($2::uuid IS NULL OR team_id = $2) AND code_hmac IS NOT NULL AND used_at IS NULL
          AND expires_at > $3 AND attempts < $4 AND (locked_until IS NULL OR locked_until <= $3)
        RETURNING code_hmac, attempts`,
      [userGuid, audience.teamId, now, this.config.maxAttempts],
    );
    if (!tried) throw new DomainException('validation_code_expired', 'No valid code for this userGuid: it expired, was used, or ran out of tries. Request a new one.');

    if (!constantTimeEqual(codeHmac(this.secret.key, userGuid, request.validationCode), tried.code_hmac)) {
      throw await this.wrongCode(userGuid, tried.attempts, now);
    }
    // Of two correct validations racing, only the one that flips used_at gets a token.
    const [consumed] = await this.updateReturning<{ user_id: string | null; team_id: string | null }>(
      `UPDATE otp_challenges SET used_at = $2, failures = 0 WHERE user_guid = $1 AND used_at IS NULL AND code_hmac = $3 RETURNING user_id, team_id`,
      [userGuid, now, tried.code_hmac],
    );
    if (!consumed?.user_id || !consumed.team_id)
      throw new DomainException('validation_code_expired', 'This code has already been used. Request a new one.');

    const issued = await this.tokens.issue({ userId: consumed.user_id, teamId: consumed.team_id, clientId: audience.clientId });
    return { userGuid, token: issued.token, tokenExpiresAtUtc: zonelessUtc(issued.expiresAt) };
  }

  /** Removes challenges long expired; a user's failure count is forgotten with them, a lockout after 24 h. */
  async purgeExpired(): Promise<number> {
    const now = this.clock.nowMs();
    const [, deleted]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM otp_challenges WHERE expires_at < $1 AND issued_at < $2 AND (locked_until IS NULL OR locked_until < $3)
          AND (last_locked_at IS NULL OR last_locked_at < $4)`,
      [new Date(now - this.config.lockoutMs), new Date(now - this.config.resendIntervalMs), new Date(now), new Date(now - this.config.lockoutMemoryMs)],
    );
    return deleted;
  }

  /** SMS when a phone was given and the delivery can send one, else e-mail. */
  private channelFor(contact: Contact): OtpChannel {
    if (contact.phone && this.delivery.channels.includes('sms')) return 'sms';
    if (contact.email && this.delivery.channels.includes('email')) return 'email';
    // Depends only on the request and the configuration, never on whether the user exists.
    throw new ValidationProblemException([{ pointer: '/email', detail: 'email is required: this service sends codes by e-mail only' }]);
  }

  /** Writes a new code over the old one, unless one was issued within the resend interval or the user is locked out. */
  private async storeCode(row: {
    userGuid: string;
    userId: string | null;
    teamId: string | null;
    hmac: Buffer;
    now: Date;
    expiresAt: Date;
  }): Promise<void> {
    const stored: unknown[] = await this.dataSource.query(
      `INSERT INTO otp_challenges AS c (user_guid, user_id, team_id, code_hmac, issued_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (user_guid) DO UPDATE
         SET code_hmac = EXCLUDED.code_hmac, issued_at = EXCLUDED.issued_at, expires_at = EXCLUDED.expires_at,
             attempts = 0, used_at = NULL
         WHERE c.issued_at <= $7 AND (c.locked_until IS NULL OR c.locked_until <= $5)
       RETURNING user_guid`,
      [row.userGuid, row.userId, row.teamId, row.hmac, row.now, row.expiresAt, new Date(row.now.getTime() - this.config.resendIntervalMs)],
    );
    if (stored.length > 0) return;

    const [current]: { issued_at: Date; locked_until: Date | null }[] = await this.dataSource.query(
      `SELECT issued_at, locked_until FROM otp_challenges WHERE user_guid = $1`,
      [row.userGuid],
    );
    const now = row.now.getTime();
    const lockedForMs = current?.locked_until ? current.locked_until.getTime() - now : 0;
    const resendInMs = current ? current.issued_at.getTime() + this.config.resendIntervalMs - now : 0;
    const retryAfter = Math.max(1, Math.ceil(Math.max(lockedForMs, resendInMs) / 1000));
    throw new DomainException(
      'rate_limit_exceeded',
      lockedForMs > 0
        ? `Too many wrong codes; request a new code in ${retryAfter} s.`
        : `A code was sent moments ago; request a new one in ${retryAfter} s.`,
      { headers: { 'retry-after': String(retryAfter) } },
    );
  }

  private async deliver(userGuid: string, hmac: Buffer, message: { channel: OtpChannel; to: string; code: string }): Promise<void> {
    const minutes = Math.max(1, Math.round(this.config.ttlMs / 60_000));
    const started = performance.now();
    try {
      await this.delivery.send({ ...message, text: `Your eid-gateway login code is ${message.code}. It is valid for ${minutes} minutes.` });
      this.timing.record(performance.now() - started);
    } catch (error) {
      if (!(error instanceof OtpDeliveryError)) throw error;
      // A code nobody received must not stay valid, nor hold back the retry.
      const now = this.clock.nowMs();
      await this.dataSource.query(
        `UPDATE otp_challenges SET code_hmac = NULL, expires_at = $3, issued_at = $4 WHERE user_guid = $1 AND code_hmac = $2`,
        [userGuid, hmac, new Date(now), new Date(now - this.config.resendIntervalMs)],
      );
      this.logger.error({ userGuid, channel: message.channel, err: error.message }, 'OTP delivery failed');
      throw new DomainException('otp_delivery_failed', 'The code could not be sent; try again shortly.');
    }
  }

  /**
   * Counts a wrong code against the user; at the threshold the user is locked out and the count
   * restarts. A lockout within 24 h of the previous one lasts twice as long, so guesses at one
   * member's login shrink each day instead of resetting every quarter hour.
   */
  private async wrongCode(userGuid: string, attempts: number, now: Date): Promise<DomainException> {
    const [state] = await this.updateReturning<{ locked_until: Date | null }>(
      `WITH next AS (
         SELECT user_guid, failures + 1 >= $2::int AS locks,
                CASE WHEN last_locked_at > $5::timestamptz THEN lockouts + 1 ELSE 1 END AS lockouts
           FROM otp_challenges WHERE user_guid = $1 FOR UPDATE)
       UPDATE otp_challenges c
          SET failures = CASE WHEN next.locks THEN 0 ELSE c.failures + 1 END,
              lockouts = CASE WHEN next.locks THEN next.lockouts ELSE c.lockouts END,
              last_locked_at = CASE WHEN next.locks THEN $3::timestamptz ELSE c.last_locked_at END,
              locked_until = CASE WHEN next.locks THEN $3::timestamptz + $4::float8 * power(2, LEAST(next.lockouts - 1, 16)) * interval '1 millisecond' ELSE c.locked_until END,
              code_hmac = CASE WHEN next.locks THEN NULL ELSE c.code_hmac END
         FROM next
        WHERE c.user_guid = next.user_guid
        RETURNING c.locked_until`,
      [userGuid, this.config.lockoutThreshold, now, this.config.lockoutMs, new Date(now.getTime() - this.config.lockoutMemoryMs)],
    );
    const triesLeft = this.config.maxAttempts - attempts;
    const detail =
      state?.locked_until && state.locked_until > now
        ? `The code is wrong. After too many wrong codes, new codes can be requested in ${Math.ceil((state.locked_until.getTime() - now.getTime()) / 60_000)} minutes.`
        : triesLeft > 0
          ? `The code is wrong; ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`
          : 'The code is wrong and has no tries left. Request a new one.';
    return new DomainException('invalid_validation_code', detail);
  }

  /** TypeORM answers an UPDATE … RETURNING with [rows, affected]. */
  private async updateReturning<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    const [rows]: [T[], number] = await this.dataSource.query(sql, parameters);
    return rows;
  }
}
