import { Injectable, Logger } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DomainException } from '../common/problem-details/domain.exception.js';
import type { Session } from './session.entity.js';
import { SessionStore } from './session.store.js';

/** The pending count is read at most this often, whatever the scrape rate (docs/operations.md). */
export const PENDING_COUNT_MAX_AGE_MS = 5_000;

export type SessionOutcome = 'complete' | 'cancelled' | 'expired' | 'failed';
export type ProviderCallOutcome = 'success' | 'rejected' | 'error';

const outcomeOf = (session: Pick<Session, 'status' | 'hintCode'>): SessionOutcome =>
  session.status === 'complete'
    ? 'complete'
    : session.hintCode === 'cancelled'
      ? 'cancelled'
      : session.hintCode === 'expiredTransaction'
        ? 'expired'
        : 'failed';

/** Sessions started and ended, how many wait, and how the e-ID providers answer (docs/operations.md). */
@Injectable()
export class SessionMetrics {
  private readonly logger = new Logger(SessionMetrics.name);
  private readonly started: Counter<'provider' | 'operation'>;
  private readonly ended: Counter<'provider' | 'operation' | 'outcome'>;
  private readonly providerCalls: Counter<'provider' | 'operation' | 'outcome'>;
  private readonly providerCallDuration: Histogram<'provider' | 'operation' | 'outcome'>;

  constructor(registry: Registry, store: SessionStore) {
    this.started = new Counter({
      name: 'eid_sessions_started_total',
      help: 'Sessions started, by provider and operation.',
      labelNames: ['provider', 'operation'],
      registers: [registry],
    });
    this.ended = new Counter({
      name: 'eid_sessions_ended_total',
      help: 'Sessions ended, by provider, operation and outcome (complete, cancelled, expired, failed).',
      labelNames: ['provider', 'operation', 'outcome'],
      registers: [registry],
    });
    this.providerCalls = new Counter({
      name: 'eid_provider_calls_total',
      help: 'Calls to e-ID providers by operation (start, collect, cancel) and outcome (success, rejected, error).',
      labelNames: ['provider', 'operation', 'outcome'],
      registers: [registry],
    });
    this.providerCallDuration = new Histogram({
      name: 'eid_provider_call_duration_seconds',
      help: 'Duration of one call to an e-ID provider.',
      labelNames: ['provider', 'operation', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    const logger = this.logger;
    // Shared by every replica, so read from the database, but at most once per few seconds:
    // a fast scraper never costs more than that (docs/operations.md).
    let cached: { atMs: number; counts: Promise<Map<string, number>> } | null = null;
    const pendingCounts = () => {
      // Real elapsed time, not the service clock: tests may freeze that.
      const nowMs = performance.now();
      if (!cached || nowMs - cached.atMs >= PENDING_COUNT_MAX_AGE_MS) cached = { atMs: nowMs, counts: readPending(store, logger) };
      return cached.counts;
    };
    new Gauge({
      name: 'eid_sessions_pending',
      help: 'Sessions waiting for the end user, by provider (read at most every 5 s).',
      labelNames: ['provider'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const [provider, count] of await pendingCounts()) this.set({ provider }, count);
      },
    });
  }

  sessionStarted(provider: string, operation: string): void {
    this.started.inc({ provider, operation });
  }

  sessionEnded(session: Pick<Session, 'provider' | 'status' | 'hintCode'>, operation: string): void {
    this.ended.inc({ provider: session.provider, operation, outcome: outcomeOf(session) });
  }

  /** Runs one provider call and records its outcome and duration; the call's error passes through. */
  async timeProviderCall<T>(provider: string, operation: string, call: () => Promise<T>): Promise<T> {
    const startedAt = performance.now();
    let outcome: ProviderCallOutcome = 'error';
    try {
      const result = await call();
      outcome = 'success';
      return result;
    } catch (error) {
      // The provider answered, but refused the request (a 4xx of its API): not an outage.
      if (error instanceof DomainException) outcome = 'rejected';
      throw error;
    } finally {
      const labels = { provider, operation, outcome };
      this.providerCalls.inc(labels);
      this.providerCallDuration.observe(labels, (performance.now() - startedAt) / 1000);
    }
  }
}

async function readPending(store: SessionStore, logger: Logger): Promise<Map<string, number>> {
  try {
    return await store.countPendingByProvider();
  } catch (error) {
    logger.warn({ err: error }, 'Could not count pending sessions for metrics');
    return new Map();
  }
}
