import type { WebhookReceiver } from './webhook-receiver.js';

/** One answer the load got: its status (0 = no answer: refused, reset or timed out) and when. */
interface Answer {
  status: number;
  at: number;
  ms: number;
}

export interface LoadOptions {
  /** The service's origin (http://127.0.0.1:PORT), or a function: a restarted replica has a new one. */
  baseUrl: string | (() => string[]);
  key: string;
  /** Sessions in flight at once. */
  workers?: number;
  /** The longest a request may take before it counts as unanswered (a hang). */
  requestTimeoutMs: number;
}

/**
 * The traffic every fault test runs through its fault (docs/reliability.md): workers that start a
 * simulator session, approve it as the end user, and poll it, over and over. It counts
 * every answer by status, and remembers every session the service accepted, so that the test can ask
 * afterwards whether each got exactly one final webhook.
 */
export class SessionLoad {
  readonly answers: Answer[] = [];
  /** Sessions whose start was answered 200: each must end and be reported exactly once. */
  readonly started = new Set<string>();
  private running = false;
  private workers: Promise<void>[] = [];
  private turn = 0;

  constructor(private readonly options: LoadOptions) {}

  start(): this {
    this.running = true;
    this.workers = Array.from({ length: this.options.workers ?? 8 }, () => this.work());
    return this;
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  /** Answers by status between two times (defaults: all). */
  byStatus(from = 0, to = Infinity): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const answer of this.answers) {
      if (answer.at < from || answer.at > to) continue;
      const label = answer.status === 0 ? 'no answer' : String(answer.status);
      counts[label] = (counts[label] ?? 0) + 1;
    }
    return counts;
  }

  /** The slowest answer between two times, in ms. */
  slowest(from = 0, to = Infinity): number {
    return Math.max(0, ...this.answers.filter((a) => a.at >= from && a.at <= to).map((a) => a.ms));
  }

  /** The time of the first 2xx answer at or after `from`, or undefined. */
  firstSuccessAfter(from: number): number | undefined {
    return this.answers.find((a) => a.at >= from && a.status >= 200 && a.status < 300)?.at;
  }

  private origin(): string {
    const { baseUrl } = this.options;
    if (typeof baseUrl === 'string') return baseUrl;
    const origins = baseUrl();
    return origins[this.turn++ % origins.length];
  }

  private async work(): Promise<void> {
    while (this.running) {
      const started = await this.call('POST', '/api/v1/auth/simulator/start', { endUserIp: '192.0.2.1' });
      const sessionId = started.body?.sessionId as string | undefined;
      if (started.status !== 200 || !sessionId) {
        await pause(100);
        continue;
      }
      this.started.add(sessionId);
      // The end user approves; during a fault the scan may fail, and the session then ends unscanned.
      await this.call('POST', '/api/v1/simulator/scan', { autoStartToken: started.body!.autoStartToken });
      // One poll, as an RP's page would make; the session ends by the background collector (2 s), and
      // the webhook receiver, not this worker, waits for that: so a worker starts several sessions a second.
      await this.call('POST', `/api/v1/auth/${sessionId}/poll`);
    }
  }

  private async call(method: string, path: string, body?: unknown): Promise<{ status: number; body?: Record<string, unknown> }> {
    const at = Date.now();
    try {
      const res = await fetch(`${this.origin()}${path}`, {
        method,
        headers: { 'x-api-key': this.options.key, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.options.requestTimeoutMs),
      });
      const text = await res.text();
      this.answers.push({ status: res.status, at, ms: Date.now() - at });
      return { status: res.status, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : undefined };
    } catch {
      this.answers.push({ status: 0, at, ms: Date.now() - at });
      return { status: 0 };
    }
  }
}

/** Final webhooks by session: which message ids each session's final event came under, and how often. */
export function finalWebhooks(receiver: WebhookReceiver): Map<string, Map<string, number>> {
  const bySession = new Map<string, Map<string, number>>();
  for (const request of receiver.requests) {
    const event = JSON.parse(request.body) as { type: string; data?: { sessionId?: string } };
    if (!/\.(completed|failed)$/.test(event.type) || !event.data?.sessionId) continue;
    const ids = bySession.get(event.data.sessionId) ?? new Map<string, number>();
    const id = String(request.headers['webhook-id']);
    ids.set(id, (ids.get(id) ?? 0) + 1);
    bySession.set(event.data.sessionId, ids);
  }
  return bySession;
}

/** Sessions the service accepted that got no final webhook (lost) or finals under several ids (duplicated). */
export function webhookLedger(load: SessionLoad, receiver: WebhookReceiver) {
  const finals = finalWebhooks(receiver);
  const lost = [...load.started].filter((id) => !finals.has(id));
  const duplicated = [...finals.entries()].filter(([, ids]) => ids.size > 1).map(([id]) => id);
  // The same message id delivered again (at least once: a lease ran out after the receiver got it).
  const redelivered = [...finals.values()].reduce((sum, ids) => sum + [...ids.values()].reduce((s, n) => s + n - 1, 0), 0);
  return { sessions: load.started.size, finals: finals.size, lost, duplicated, redelivered };
}

/**
 * The ledger once every accepted session has its final webhook, or as it stands when none arrived for
 * `stallMs` (docs/reliability.md): on a loaded machine the collector settles a backlog of hundreds of
 * sessions for minutes after the load stops (its evidence work is CPU), so a fixed deadline would
 * count late sessions as lost; a stall (a job that makes no progress) still fails. Also answers how
 * long the backlog took from `since`.
 */
export async function finalWebhooksOf(
  load: SessionLoad,
  receiver: WebhookReceiver,
  { since = Date.now(), stallMs = 30_000 } = {},
): Promise<ReturnType<typeof webhookLedger> & { drainedSeconds: number }> {
  let progressAt = Date.now();
  let finals = -1;
  for (;;) {
    const ledger = webhookLedger(load, receiver);
    if (ledger.finals !== finals) [finals, progressAt] = [ledger.finals, Date.now()];
    if (ledger.lost.length === 0 || Date.now() - progressAt > stallMs) return { ...ledger, drainedSeconds: (Date.now() - since) / 1000 };
    await pause(100);
  }
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
