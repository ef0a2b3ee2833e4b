import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { COLLECT_INTERVAL_MS } from '../settlement/collect-cadence.js';
import type { SessionSettlement } from '../settlement/session-settlement.js';
import { SessionCollectorJob } from './session-collector.job.js';

type Batch = Awaited<ReturnType<SessionSettlement['collectDueByProvider']>>;

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** A settlement whose claims and collects end when the test says so. */
function settlementWith(claims: Promise<Batch>[]) {
  const collectDueByProvider = jest.fn((): Promise<Batch> => claims.shift() ?? Promise.resolve({ claimed: [], byProvider: new Map() }));
  return { settlement: { collectDueByProvider } as unknown as SessionSettlement, collectDueByProvider };
}

const settles = async (promise: Promise<unknown>): Promise<boolean> =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 20))]);

describe(SessionCollectorJob.name, () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('should let the shutdown wait for the claim in flight, and start no tick after it', async () => {
    const claim = deferred<Batch>();
    const { settlement, collectDueByProvider } = settlementWith([claim.promise]);
    const job = new SessionCollectorJob(settlement);
    const tick = job.collectDueSessions();

    const shutdown = job.beforeApplicationShutdown();
    expect(await settles(shutdown)).toBe(false);
    claim.resolve({ claimed: ['a'], byProvider: new Map() });
    await Promise.all([tick, shutdown]);

    await job.collectDueSessions();
    expect(collectDueByProvider).toHaveBeenCalledTimes(1);
  });

  it('should let the shutdown wait for a provider collect that outlives its tick', async () => {
    const collect = deferred<void>();
    const { settlement } = settlementWith([Promise.resolve({ claimed: ['a'], byProvider: new Map([['slow', collect.promise]]) })]);
    const job = new SessionCollectorJob(settlement);
    const tick = job.collectDueSessions();

    const shutdown = job.beforeApplicationShutdown();
    expect(await settles(shutdown)).toBe(false);
    collect.resolve();
    await Promise.all([tick, shutdown]);
  });

  it('should give a collect that never ends one interval at shutdown, then let the application close', async () => {
    const never = new Promise<void>(() => undefined);
    const { settlement } = settlementWith([Promise.resolve({ claimed: ['a'], byProvider: new Map([['hung', never]]) })]);
    const job = new SessionCollectorJob(settlement);
    void job.collectDueSessions();

    const startedAt = Date.now();
    await job.beforeApplicationShutdown();
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(COLLECT_INTERVAL_MS - 50);
  });

  it('should not overlap ticks: a tick while one runs claims nothing', async () => {
    const claim = deferred<Batch>();
    const { settlement, collectDueByProvider } = settlementWith([claim.promise]);
    const job = new SessionCollectorJob(settlement);
    const first = job.collectDueSessions();
    await job.collectDueSessions();
    expect(collectDueByProvider).toHaveBeenCalledTimes(1);
    claim.resolve({ claimed: [], byProvider: new Map() });
    await first;
  });
});
