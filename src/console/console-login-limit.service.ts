import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { consoleConfig, type ConsoleConfig } from '../config/console.config.js';
import { clientAddressOf } from '../protection/client-address.js';

const WINDOW_MS = 60_000;

/**
 * The console login's per-address limit (docs/console.md): a fixed one-minute window per client
 * address in PostgreSQL, so it holds across replicas. The OTP rules per user apply on top.
 */
@Injectable()
export class ConsoleLoginLimit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(consoleConfig.KEY) private readonly config: ConsoleConfig,
  ) {}

  /** Counts one login request from `ip`; 429 with Retry-After once the window is full. */
  async consume(ip: string): Promise<void> {
    const now = this.clock.now();
    const [row]: { requests: number; window_start: Date }[] = await this.dataSource.query(
      `INSERT INTO console_login_windows AS w (address, window_start, requests) VALUES ($1, $2, 1)
       ON CONFLICT (address) DO UPDATE
         SET window_start = CASE WHEN w.window_start <= $3 THEN EXCLUDED.window_start ELSE w.window_start END,
             requests = CASE WHEN w.window_start <= $3 THEN 1 ELSE w.requests + 1 END
       RETURNING requests, window_start`,
      [clientAddressOf(ip), now, new Date(now.getTime() - WINDOW_MS)],
    );
    if (row.requests <= this.config.loginPerMinute) return;
    const retryAfter = Math.max(1, Math.ceil((row.window_start.getTime() + WINDOW_MS - now.getTime()) / 1000));
    throw new DomainException('rate_limit_exceeded', `Too many login requests from this address; retry after ${retryAfter} s.`, {
      headers: { 'retry-after': String(retryAfter) },
    });
  }

  /** Forgets windows that have ended. */
  async purgeEnded(): Promise<void> {
    await this.dataSource.query(`DELETE FROM console_login_windows WHERE window_start <= $1`, [new Date(this.clock.nowMs() - WINDOW_MS)]);
  }
}
