import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { statement } from '../database/statement.js';

const countSql = statement<[address: string, now: Date, endedBefore: Date], { requests: number; window_start: Date }>(
  `INSERT INTO console_login_windows AS w (address, window_start, requests) VALUES ($1, $2, 1)
   ON CONFLICT (address) DO UPDATE
     SET window_start = CASE WHEN w.window_start <= $3 THEN EXCLUDED.window_start ELSE w.window_start END,
         requests = CASE WHEN w.window_start <= $3 THEN 1 ELSE w.requests + 1 END
   RETURNING requests, window_start`,
);
const deleteEndedSql = statement<[endedBefore: Date]>(`DELETE FROM console_login_windows WHERE window_start <= $1`);

/** Every statement on console_login_windows: one fixed window of login requests per client address. */
@Injectable()
export class ConsoleLoginWindowStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Counts one request from `address` in its window, starting a new window at `now` when the current
   * one began at or before `endedBefore`; the window's count and start after this request.
   */
  async count(address: string, now: Date, endedBefore: Date): Promise<{ requests: number; windowStart: Date }> {
    return (await countSql.run(this.dataSource, address, now, endedBefore)).rows[0];
  }

  async deleteEnded(endedBefore: Date): Promise<number> {
    return (await deleteEndedSql.run(this.dataSource, endedBefore)).rowCount;
  }
}
