import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { consoleConfig, type ConsoleConfig } from '../config/console.config.js';
import { clientAddressOf } from '../protection/client-address.js';
import { ConsoleLoginWindowStore } from './console-login-window.store.js';

const WINDOW_MS = 60_000;

/**
 * The console login's per-address limit (docs/console.md): a fixed one-minute window per client
 * address in PostgreSQL, so it holds across replicas. The OTP rules per user apply on top.
 */
@Injectable()
export class ConsoleLoginLimit {
  constructor(
    private readonly windows: ConsoleLoginWindowStore,
    private readonly clock: Clock,
    @Inject(consoleConfig.KEY) private readonly config: ConsoleConfig,
  ) {}

  /** Counts one login request from `ip`; 429 with Retry-After once the window is full. */
  async consume(ip: string): Promise<void> {
    const now = this.clock.now();
    const window = await this.windows.count(clientAddressOf(ip), now, new Date(now.getTime() - WINDOW_MS));
    if (window.requests <= this.config.loginPerMinute) return;
    const retryAfter = Math.max(1, Math.ceil((window.windowStart.getTime() + WINDOW_MS - now.getTime()) / 1000));
    throw new DomainException('rate_limit_exceeded', `Too many login requests from this address; retry after ${retryAfter} s.`, {
      headers: { 'retry-after': String(retryAfter) },
    });
  }

  /** Forgets windows that have ended. */
  purgeEnded(): Promise<number> {
    return this.windows.deleteEnded(new Date(this.clock.nowMs() - WINDOW_MS));
  }
}
