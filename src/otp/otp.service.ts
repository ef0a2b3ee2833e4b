import { performance } from 'node:perf_hooks';
import { Inject, Injectable, Logger } from '@nestjs/common';
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
import { OtpChallengeStore, type NewChallenge } from './otp-challenge.store.js';
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
  /**
   * false: wrong codes do not count towards the user's lockout; the caller slows guesses down its own
   * way (the console, per user and address: docs/console.md). Default true.
   */
  userLockout?: boolean;
}

interface Contact {
  email?: string;
  phone?: string;
}

/**
 * The OTP login (docs/otp-and-tokens.md). Every userGuid, a real user's or one derived for an unknown phone or
 * e-mail, goes through the same rows and statements, so throttling, tries and lockout cannot tell
 * them apart; only a real user is sent a code, and only a code sent can match.
 */
@Injectable()
export class OtpService {
  private readonly logger = new Logger(OtpService.name);
  private readonly timing = new DeliveryTiming();

  constructor(
    private readonly challenges: OtpChallengeStore,
    private readonly users: UsersService,
    private readonly tokens: TokensService,
    private readonly delivery: OtpDelivery,
    private readonly secret: OtpSecret,
    private readonly clock: Clock,
    @Inject(otpConfig.KEY) private readonly config: OtpConfig,
  ) {}

  /** `requestedFrom`: the client address that asked (the console's), named in the message so the member knows when others ask. */
  async requestCode(audience: OtpAudience, request: LoginOtpDto, requestedFrom?: string): Promise<CodeIssued> {
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
      await this.deliver(userGuid, hmac, { channel, to: channel === 'sms' ? contact.phone! : contact.email!, code }, requestedFrom);
    } else {
      await this.timing.imitate();
    }
    return { userGuid, validationCodeValidUntilUtc: zonelessUtc(expiresAt) };
  }

  async validateCode(audience: OtpAudience, request: LoginOtpValidateDto): Promise<CodeValidated> {
    const { userGuid } = request;
    const now = this.clock.now();
    // The try is counted before the comparison, so parallel guesses cannot exceed the allowance.
    const tried = await this.challenges.countTry(userGuid, audience.teamId, now, this.config.maxAttempts);
    if (!tried)
      throw new DomainException(
        'validation_code_expired',
        'No valid code for this userGuid: it expired, was used, or ran out of tries. Request a new one.',
      );

    if (!constantTimeEqual(codeHmac(this.secret.key, userGuid, request.validationCode), tried.codeHmac)) {
      throw await this.wrongCode(userGuid, tried.attempts, now, audience.userLockout !== false);
    }
    // Of two correct validations racing, only the one that flips used_at gets a token.
    const consumed = await this.challenges.consume(userGuid, now, tried.codeHmac);
    if (!consumed?.userId || !consumed.teamId)
      throw new DomainException('validation_code_expired', 'This code has already been used. Request a new one.');

    // An invited member has joined (docs/console.md, "Members").
    await this.users.markJoined(consumed.userId, now);
    const issued = await this.tokens.issue({ userId: consumed.userId, teamId: consumed.teamId, clientId: audience.clientId });
    return { userGuid, token: issued.token, tokenExpiresAtUtc: zonelessUtc(issued.expiresAt) };
  }

  /** Removes challenges long expired; a user's failure count is forgotten with them, a lockout after 24 h. */
  async purgeExpired(): Promise<number> {
    const now = this.clock.nowMs();
    return this.challenges.deleteExpired(
      new Date(now - this.config.lockoutMs),
      new Date(now - this.config.resendIntervalMs),
      new Date(now),
      new Date(now - this.config.lockoutMemoryMs),
    );
  }

  /** SMS when a phone was given and the delivery can send one, else e-mail. */
  private channelFor(contact: Contact): OtpChannel {
    if (contact.phone && this.delivery.channels.includes('sms')) return 'sms';
    if (contact.email && this.delivery.channels.includes('email')) return 'email';
    // Depends only on the request and the configuration, never on whether the user exists.
    throw new ValidationProblemException([{ pointer: '/email', detail: 'email is required: this service sends codes by e-mail only' }]);
  }

  /** Writes a new code over the old one, unless one was issued within the resend interval or the user is locked out. */
  private async storeCode(row: NewChallenge): Promise<void> {
    if (await this.challenges.replaceCode(row, new Date(row.now.getTime() - this.config.resendIntervalMs))) return;

    const current = await this.challenges.throttleOf(row.userGuid);
    const now = row.now.getTime();
    const lockedForMs = current?.lockedUntil ? current.lockedUntil.getTime() - now : 0;
    const resendInMs = current ? current.issuedAt.getTime() + this.config.resendIntervalMs - now : 0;
    const retryAfter = Math.max(1, Math.ceil(Math.max(lockedForMs, resendInMs) / 1000));
    throw new DomainException(
      'rate_limit_exceeded',
      lockedForMs > 0
        ? `Too many wrong codes; request a new code in ${retryAfter} s.`
        : `A code was sent moments ago; request a new one in ${retryAfter} s.`,
      { headers: { 'retry-after': String(retryAfter) } },
    );
  }

  /**
   * Tells a member that wrong codes for their account have used up its daily budget (docs/console.md,
   * "Wrong codes"); nothing for a userGuid that is nobody's. The message carries no code.
   */
  async tellOfWrongCodes(userGuid: string, failures: number): Promise<void> {
    const user = await this.users.findWithTeam(userGuid);
    if (!user) return;
    const channel =
      user.email && this.delivery.channels.includes('email')
        ? 'email'
        : user.phone && this.delivery.channels.includes('sms')
          ? 'sms'
          : null;
    if (!channel) return;
    await this.delivery.send({
      channel,
      to: channel === 'email' ? user.email! : user.phone!,
      code: '',
      text: `${failures} wrong eid-gateway console login codes were entered for your account within a day. Until a day passes without one, each console login try waits an hour. If you did not enter them, someone else is asking for your codes: never share a code; your operator can lift the wait.`,
    });
  }

  private async deliver(
    userGuid: string,
    hmac: Buffer,
    message: { channel: OtpChannel; to: string; code: string },
    requestedFrom: string | undefined,
  ): Promise<void> {
    const minutes = Math.max(1, Math.round(this.config.ttlMs / 60_000));
    const origin = requestedFrom
      ? ` It was asked for at the team console from ${requestedFrom}; if that was not you, someone else is asking for your codes: never share one.`
      : '';
    const started = performance.now();
    try {
      await this.delivery.send({
        ...message,
        text: `Your eid-gateway login code is ${message.code}. It is valid for ${minutes} minutes.${origin}`,
      });
      this.timing.record(performance.now() - started);
    } catch (error) {
      if (!(error instanceof OtpDeliveryError)) throw error;
      // A code nobody received must not stay valid, nor hold back the retry.
      const now = this.clock.nowMs();
      await this.challenges.voidCode(userGuid, hmac, new Date(now), new Date(now - this.config.resendIntervalMs));
      this.logger.error({ userGuid, channel: message.channel, err: error.message }, 'OTP delivery failed');
      throw new DomainException('otp_delivery_failed', 'The code could not be sent; try again shortly.');
    }
  }

  /**
   * Counts a wrong code against the user; at the threshold the user is locked out and the count
   * restarts. A lockout within 24 h of the previous one lasts twice as long, so guesses at one
   * member's login shrink each day instead of resetting every quarter hour.
   */
  private async wrongCode(userGuid: string, attempts: number, now: Date, lockout: boolean): Promise<DomainException> {
    const state = await this.countTowardsLockout(userGuid, now, lockout);
    const triesLeft = this.config.maxAttempts - attempts;
    const detail =
      state?.lockedUntil && state.lockedUntil > now
        ? `The code is wrong. After too many wrong codes, new codes can be requested in ${Math.ceil((state.lockedUntil.getTime() - now.getTime()) / 60_000)} minutes.`
        : triesLeft > 0
          ? `The code is wrong; ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`
          : 'The code is wrong and has no tries left. Request a new one.';
    return new DomainException('invalid_validation_code', detail);
  }

  private countTowardsLockout(userGuid: string, now: Date, lockout: boolean): Promise<{ lockedUntil: Date | null } | null> {
    if (!lockout) return Promise.resolve(null);
    return this.challenges.recordFailure(
      userGuid,
      this.config.lockoutThreshold,
      now,
      this.config.lockoutMs,
      new Date(now.getTime() - this.config.lockoutMemoryMs),
    );
  }
}
