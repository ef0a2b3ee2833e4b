import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';

interface SeedSession {
  environment: 'test' | 'live';
  provider: string;
  status: 'complete' | 'failed' | 'pending';
  hintCode?: string;
  /** Minutes before now it started. */
  ago: number;
  durationMs?: number;
}

/**
 * A known set of sessions and webhook messages for the overview (docs/console.md): what the stats
 * route and the console must show for it are in OVERVIEW_EXPECTED.
 */
export function overviewSessions(): SeedSession[] {
  const sessions: SeedSession[] = [];
  const add = (count: number, session: Omit<SeedSession, 'ago'>, ago = 20) => {
    for (let i = 0; i < count; i++) sessions.push({ ...session, ago: ago + i });
  };
  [1000, 2000, 3000, 4000].forEach((durationMs) => add(1, { environment: 'test', provider: 'simulator', status: 'complete', durationMs }));
  [5000, 6000].forEach((durationMs) => add(1, { environment: 'test', provider: 'bankid', status: 'complete', durationMs }));
  add(3, { environment: 'test', provider: 'bankid', status: 'failed', hintCode: 'userCancel' });
  add(1, { environment: 'test', provider: 'simulator', status: 'failed', hintCode: 'cancelled' });
  add(2, { environment: 'test', provider: 'simulator', status: 'failed', hintCode: 'expiredTransaction' });
  add(3, { environment: 'test', provider: 'bankid', status: 'failed', hintCode: 'startFailed' });
  add(1, { environment: 'test', provider: 'simulator', status: 'pending', hintCode: 'outstandingTransaction' });
  // Ten days ago: in the 30-day figures only.
  add(1, { environment: 'test', provider: 'simulator', status: 'complete', durationMs: 9000 }, 10 * 24 * 60);
  add(5, { environment: 'live', provider: 'bankid', status: 'complete', durationMs: 1500 });
  return sessions;
}

export const OVERVIEW_EXPECTED = {
  test24h: {
    total: 16,
    byOutcome: { complete: 6, failed: 3, cancelled: 4, expired: 2, pending: 1 },
    shareCompleted: 0.4,
    completionMs: { median: 3500, p95: 5750 },
    webhooks: { delivered: 4, failed: 1, pending: 0, attempts: 7, median: 400, p95: 1000 },
  },
  test30dTotal: 17,
  live24hTotal: 5,
};

/** Inserts the set for a team (and its first key); the webhook messages go to one test endpoint. */
export async function seedOverview(app: INestApplicationContext, teamId: string, apiKeyId: string | null): Promise<string[]> {
  const db = app.get(DataSource);
  const now = Date.now();
  const ids: string[] = [];
  for (const session of overviewSessions()) {
    const id = randomUUID();
    ids.push(id);
    const created = new Date(now - session.ago * 60_000);
    const completed = session.status === 'pending' ? null : new Date(created.getTime() + (session.durationMs ?? 30_000));
    await db.query(
      `INSERT INTO sessions (id, team_id, api_key_id, environment, provider, operation, channel, order_ref, status, hint_code,
                             order_time, created_at, expires_at, completed_at, last_collected_at)
       VALUES ($1, $2, $3, $4, $5, 'auth', 'app', $6, $7, $8, $9, $9, $10, $11, 'infinity')`,
      [
        id,
        teamId,
        apiKeyId,
        session.environment,
        session.provider,
        `order-${id}`,
        session.status,
        session.hintCode ?? null,
        created,
        new Date(created.getTime() + 180_000),
        completed,
      ],
    );
  }
  const endpointId = randomUUID();
  await db.query(
    `INSERT INTO webhook_endpoints (id, team_id, environment, url, event_types, secret_enc, created_at, updated_at)
     VALUES ($1, $2, 'test', 'https://hooks.example.com/eid', ARRAY['auth.session.completed'], '\\x00', now(), now())`,
    [endpointId, teamId],
  );
  // Four delivered at the first try, one failed after three; latencies 100–400 ms and 1 s.
  const deliveries: [status: string, latencies: number[]][] = [
    ['delivered', [100]],
    ['delivered', [200]],
    ['delivered', [300]],
    ['delivered', [400]],
    ['failed', [1000, 1000, 1000]],
  ];
  for (const [i, [status, latencies]] of deliveries.entries()) {
    const deliveryId = randomUUID();
    await db.query(
      `INSERT INTO webhook_deliveries (id, message_id, team_id, endpoint_id, session_id, event_type, event_at, status, attempt_count,
                                       finished_at, created_at)
       VALUES ($1, $2, $3, $4, $5, 'auth.session.completed', now(), $6, $7, now(), now() - interval '5 minutes')`,
      [deliveryId, `msg_${deliveryId}`, teamId, endpointId, ids[i], status, latencies.length],
    );
    for (const [n, latency] of latencies.entries()) {
      await db.query(
        `INSERT INTO webhook_attempts (id, delivery_id, attempt_number, attempted_at, trigger, outcome, status_code, latency_ms)
         VALUES ($1, $2, $3, now(), 'scheduled', $4, $5, $6)`,
        [randomUUID(), deliveryId, n + 1, status === 'delivered' ? 'success' : 'http_error', status === 'delivered' ? 200 : 500, latency],
      );
    }
  }
  return ids;
}
