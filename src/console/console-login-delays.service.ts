import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { clientAddressOf } from '../protection/client-address.js';
import { ConsoleLoginFailureStore } from './console-login-failure.store.js';

/** Wrong codes that cost nothing: a typo or two, and the tries of one code. */
export const CONSOLE_FREE_FAILURES = 5;
const BASE_DELAY_MS = 1_000;
export const CONSOLE_MAX_DELAY_MS = 3600_000;
/** A pair's count is forgotten a day after its last wrong code. */
const MEMORY_MS = 24 * 3600_000;

/**
 * Progressive delays for wrong console login codes, per user and client address (docs/console.md,
 * "Wrong codes"): after five, each next try from that address for that user waits 1 s, 2 s, 4 s, … up
 * to an hour. Nothing locks the member out: a stranger's guesses slow down the stranger's address, and
 * new codes can always be requested. Every userGuid, a member's or one derived for an unknown e-mail,
 * is counted the same way, so the delays tell nobody who is a member.
 */
@Injectable()
export class ConsoleLoginDelays {
  constructor(
    private readonly failures: ConsoleLoginFailureStore,
    private readonly clock: Clock,
  ) {}

  /** 429 with Retry-After while this address must wait before its next try for this user. */
  async assertMayTry(userGuid: string, ip: string): Promise<void> {
    const now = this.clock.now();
    const retryAt = await this.failures.retryAt(userGuid, clientAddressOf(ip), now);
    if (retryAt) throw tooSoon(retryAt, now);
  }

  async recordFailure(userGuid: string, ip: string): Promise<void> {
    const now = this.clock.now();
    await this.failures.recordFailure(userGuid, clientAddressOf(ip), now, new Date(now.getTime() - MEMORY_MS), {
      freeFailures: CONSOLE_FREE_FAILURES,
      baseMs: BASE_DELAY_MS,
      maxMs: CONSOLE_MAX_DELAY_MS,
    });
  }

  async clear(userGuid: string, ip: string): Promise<void> {
    await this.failures.clear(userGuid, clientAddressOf(ip));
  }

  async purgeForgotten(): Promise<void> {
    const now = this.clock.now();
    await this.failures.deleteForgotten(new Date(now.getTime() - MEMORY_MS), now);
  }
}

function tooSoon(retryAt: Date, now: Date): DomainException {
  const retryAfter = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000));
  return new DomainException('rate_limit_exceeded', `Too many wrong codes from this address; try again in ${retryAfter} s.`, {
    headers: { 'retry-after': String(retryAfter) },
  });
}
