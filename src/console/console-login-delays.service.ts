import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { errorForLog } from '../common/logging/error-for-log.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { OtpService } from '../otp/otp.service.js';
import { clientAddressOf } from '../protection/client-address.js';
import { ConsoleLoginFailureStore, EVERY_ADDRESS } from './console-login-failure.store.js';

/** Wrong codes that cost nothing: a typo or two, and the tries of one code. */
export const CONSOLE_FREE_FAILURES = 5;
const BASE_DELAY_MS = 1_000;
export const CONSOLE_MAX_DELAY_MS = 3600_000;
/** The account's budget: wrong codes from every address together within a day, before every try waits. */
export const CONSOLE_ACCOUNT_FREE_FAILURES = 20;
/** Once the budget is spent, each next try for the user, from any address, waits this long after the last wrong code. */
export const CONSOLE_ACCOUNT_DELAY_MS = 3600_000;
/** A pair's count is forgotten a day after its last wrong code. */
const MEMORY_MS = 24 * 3600_000;

/**
 * Progressive delays for wrong console login codes (docs/console.md, "Wrong codes"). Per user and
 * client address: after five, each next try from that address for that user waits 1 s, 2 s, 4 s, … up
 * to an hour. Per user from every address: after twenty within a day, each next try from anywhere
 * waits an hour after the last wrong code, and the member is told. Nothing locks the member out of
 * asking for codes. Every userGuid, a member's or one derived for an unknown e-mail, is counted the
 * same way, so the delays tell nobody who is a member.
 */
@Injectable()
export class ConsoleLoginDelays {
  private readonly logger = new Logger(ConsoleLoginDelays.name);

  constructor(
    private readonly failures: ConsoleLoginFailureStore,
    private readonly otp: OtpService,
    private readonly clock: Clock,
  ) {}

  /** 429 with Retry-After while this address (or every address) must wait before its next try for this user. */
  async assertMayTry(userGuid: string, ip: string): Promise<void> {
    const now = this.clock.now();
    const wait = await this.failures.retryAt(userGuid, clientAddressOf(ip), now);
    if (wait) throw tooSoon(wait.retryAt, now, wait.everyAddress);
  }

  async recordFailure(userGuid: string, ip: string): Promise<void> {
    const now = this.clock.now();
    const forgottenBefore = new Date(now.getTime() - MEMORY_MS);
    await this.failures.recordFailure(userGuid, clientAddressOf(ip), now, forgottenBefore, {
      freeFailures: CONSOLE_FREE_FAILURES,
      baseMs: BASE_DELAY_MS,
      maxMs: CONSOLE_MAX_DELAY_MS,
    });
    const account = await this.failures.recordFailure(userGuid, EVERY_ADDRESS, now, forgottenBefore, {
      freeFailures: CONSOLE_ACCOUNT_FREE_FAILURES,
      baseMs: CONSOLE_ACCOUNT_DELAY_MS,
      maxMs: CONSOLE_ACCOUNT_DELAY_MS,
    });
    // Told once, when the budget runs out; not awaited, so a member's answer takes no longer than a stranger's.
    if (account.failures === CONSOLE_ACCOUNT_FREE_FAILURES + 1)
      this.otp.tellOfWrongCodes(userGuid, account.failures).catch((error: unknown) => {
        this.logger.error({ err: errorForLog(error) }, 'The member could not be told of wrong login codes');
      });
  }

  async clear(userGuid: string, ip: string): Promise<void> {
    await this.failures.clear(userGuid, clientAddressOf(ip));
  }

  purgeForgotten(): Promise<number> {
    const now = this.clock.now();
    return this.failures.deleteForgotten(new Date(now.getTime() - MEMORY_MS), now);
  }
}

function tooSoon(retryAt: Date, now: Date, everyAddress: boolean): DomainException {
  const retryAfter = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000));
  const reason = everyAddress ? 'Too many wrong codes for this account today' : 'Too many wrong codes from this address';
  return new DomainException('rate_limit_exceeded', `${reason}; try again in ${retryAfter} s.`, {
    headers: { 'retry-after': String(retryAfter) },
  });
}
