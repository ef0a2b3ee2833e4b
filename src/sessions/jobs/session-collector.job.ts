import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { Interval } from '@nestjs/schedule';
import { errorForLog } from '../../common/logging/error-for-log.js';
import { COLLECT_INTERVAL_MS } from '../settlement/collect-cadence.js';
import { SessionSettlement } from '../settlement/session-settlement.js';

const BATCH_SIZE = 200;

/**
 * Collects pending sessions in the background, so outcomes are known (and webhooks fire) without polls.
 * A provider that hangs holds only its own sessions: a tick waits for the collects of at most one
 * interval, and a provider whose collect is still in flight is skipped by later claims until it ends
 * (docs/reliability.md, "A provider hangs"). The application's shutdown waits for the tick in flight
 * and, for at most one interval, for the collects it left running; no tick starts after it.
 */
@Injectable()
export class SessionCollectorJob implements BeforeApplicationShutdown {
  private readonly logger = new Logger(SessionCollectorJob.name);
  private tick: Promise<void> | null = null;
  private stopping = false;
  /** Each provider's collect still running: one that outlived its tick keeps later claims off the provider. */
  private readonly collecting = new Map<string, Promise<void>>();

  constructor(private readonly settlement: SessionSettlement) {}

  @Interval(COLLECT_INTERVAL_MS)
  async collectDueSessions(): Promise<void> {
    // A slow tick must not overlap the next one in the same process.
    if (this.tick || this.stopping) return;
    this.tick = this.collectBatches().finally(() => (this.tick = null));
    await this.tick;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.tick;
    // A collect that outlived its tick (a slow provider or database) gets one more interval: what it has
    // not written by then is written by the next collect of those sessions, here or on another replica.
    await settledOrTimedOut(Promise.all(this.collecting.values()), COLLECT_INTERVAL_MS);
  }

  private async collectBatches(): Promise<void> {
    try {
      // Batches until nothing is due, so ten thousand pending sessions are all collected every interval.
      const deadline = Date.now() + COLLECT_INTERVAL_MS;
      let claimed: number;
      do {
        const batch = await this.settlement.collectDueByProvider(BATCH_SIZE, [...this.collecting.keys()]);
        claimed = batch.claimed.length;
        const collects = [...batch.byProvider].map(([provider, done]) => this.track(provider, done));
        await settledOrTimedOut(Promise.all(collects), deadline - Date.now());
      } while (claimed === BATCH_SIZE && Date.now() < deadline && !this.stopping);
    } catch (error) {
      this.logger.error({ err: errorForLog(error) }, 'Background collect failed');
    }
  }

  /** Keeps `provider`'s collect until it ends; the collect's own failure is logged, not thrown. */
  private track(provider: string, done: Promise<void>): Promise<void> {
    const tracked = done
      .catch((error: unknown) =>
        this.stopping
          ? this.logger.warn({ err: errorForLog(error), provider }, 'Collect cut off by the shutdown; its sessions are collected again')
          : this.logger.error({ err: errorForLog(error), provider }, 'Background collect failed'),
      )
      .finally(() => {
        if (this.collecting.get(provider) === tracked) this.collecting.delete(provider);
      });
    this.collecting.set(provider, tracked);
    return tracked;
  }
}

/** Waits for `work` at most `ms`, leaving no timer behind once it has ended. */
async function settledOrTimedOut(work: Promise<unknown>, ms: number): Promise<void> {
  const timer = new AbortController();
  const timedOut = sleep(Math.max(0, ms), undefined, { signal: timer.signal }).catch(() => undefined);
  try {
    await Promise.race([work, timedOut]);
  } finally {
    timer.abort();
  }
}
