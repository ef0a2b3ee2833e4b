import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { statement } from '../../database/statement.js';

export interface SessionEventRow {
  sessionId: string;
  status: string;
  hintCode: string | null;
}

const appendSql = statement<[at: Date, sessionIds: string[], statuses: string[], hintCodes: (string | null)[]]>(
  `INSERT INTO session_events (session_id, occurred_at, status, hint_code)
   SELECT v.session_id, $1, v.status, v.hint_code FROM unnest($2::uuid[], $3::text[], $4::text[]) AS v (session_id, status, hint_code)`,
);

/**
 * The timeline's writes (docs/console.md, "A session's timeline"): one multi-row insert per
 * settlement transaction, in that transaction, so the timeline holds exactly the changes that were
 * committed.
 */
@Injectable()
export class SessionEventLog {
  async append(manager: EntityManager, rows: SessionEventRow[], at: Date): Promise<void> {
    if (rows.length === 0) return;
    await appendSql.run(
      manager,
      at,
      rows.map((row) => row.sessionId),
      rows.map((row) => row.status),
      rows.map((row) => row.hintCode),
    );
  }
}
