import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { statement } from '../database/statement.js';
import type { StatsWindow } from './stats-range.js';

export interface SessionCountRow {
  bucket: Date;
  provider: string;
  status: string;
  hintCode: string | null;
  count: number;
}

export interface Percentiles {
  count: number;
  median: number | null;
  p95: number | null;
}

export interface DeliveryCountRow {
  bucket: Date;
  status: string;
  count: number;
}

/** A scope of the overview: one team's one environment over a window. */
export interface StatsScope {
  teamId: string;
  environment: string;
  window: StatsWindow;
}

type PercentileRow = { count: number; median: number | null; p95: number | null };
const sessionCountsSql = statement<
  [teamId: string, environment: string, bucket: string, from: Date, to: Date],
  { bucket: Date; provider: string; status: string; hint_code: string | null; count: number }
>(
  `SELECT date_bin($3::interval, created_at, $4::timestamptz) AS bucket, provider, status, hint_code, count(*)::int AS count
     FROM sessions
    WHERE team_id = $1 AND environment = $2 AND created_at >= $4 AND created_at < $5
    GROUP BY 1, 2, 3, 4`,
);
const completionTimesSql = statement<[teamId: string, environment: string, from: Date, to: Date], PercentileRow>(
  `SELECT count(*)::int AS count,
          percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS median,
          percentile_cont(0.95) WITHIN GROUP (ORDER BY ms) AS p95
     FROM (SELECT extract(epoch FROM completed_at - created_at) * 1000 AS ms
             FROM sessions
            WHERE team_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4 AND status = 'complete') t`,
);
const deliveryCountsSql = statement<
  [teamId: string, environment: string, bucket: string, from: Date, to: Date],
  { bucket: Date; status: string; count: number }
>(
  `SELECT date_bin($3::interval, d.created_at, $4::timestamptz) AS bucket, d.status, count(*)::int AS count
     FROM webhook_deliveries d
     JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE d.team_id = $1 AND e.environment = $2 AND d.created_at >= $4 AND d.created_at < $5
    GROUP BY 1, 2`,
);
const attemptLatenciesSql = statement<[teamId: string, environment: string, from: Date, to: Date], PercentileRow>(
  `SELECT count(*)::int AS count,
          percentile_cont(0.5) WITHIN GROUP (ORDER BY a.latency_ms) AS median,
          percentile_cont(0.95) WITHIN GROUP (ORDER BY a.latency_ms) AS p95
     FROM webhook_deliveries d
     JOIN webhook_endpoints e ON e.id = d.endpoint_id
     JOIN webhook_attempts a ON a.delivery_id = d.id
    WHERE d.team_id = $1 AND e.environment = $2 AND d.created_at >= $3 AND d.created_at < $4`,
);

/**
 * The overview's aggregate reads (docs/console.md, "Overview"). Each is one grouped query over an
 * index range of the team's environment (ix_sessions_team_env_created covers every session column
 * read here), so a page view costs a few index scans, never a read of every session row.
 */
@Injectable()
export class StatsStore {
  constructor(private readonly db: DataSource) {}

  /** Sessions started in the window, counted per bucket, provider, status and hint code. */
  async sessionCounts({ teamId, environment, window }: StatsScope): Promise<SessionCountRow[]> {
    const { rows } = await sessionCountsSql.run(this.db, teamId, environment, `1 ${window.bucket}`, window.from, window.to);
    return rows.map((row) => ({ ...row, bucket: new Date(row.bucket) }));
  }

  /** How long the completed sessions of the window took, start to end, in milliseconds. */
  async completionTimes({ teamId, environment, window }: StatsScope): Promise<Percentiles> {
    return percentiles((await completionTimesSql.run(this.db, teamId, environment, window.from, window.to)).rows[0]);
  }

  /** Webhook messages created in the window for the environment's endpoints, per bucket and status. */
  async deliveryCounts({ teamId, environment, window }: StatsScope): Promise<DeliveryCountRow[]> {
    const { rows } = await deliveryCountsSql.run(this.db, teamId, environment, `1 ${window.bucket}`, window.from, window.to);
    return rows.map((row) => ({ ...row, bucket: new Date(row.bucket) }));
  }

  /** The latency of the HTTP attempts of those messages. */
  async attemptLatencies({ teamId, environment, window }: StatsScope): Promise<Percentiles> {
    return percentiles((await attemptLatenciesSql.run(this.db, teamId, environment, window.from, window.to)).rows[0]);
  }
}

function percentiles(row: { count: number; median: number | string | null; p95: number | string | null }): Percentiles {
  const round = (value: number | string | null) => (value === null ? null : Math.round(Number(value)));
  return { count: row.count, median: round(row.median), p95: round(row.p95) };
}
