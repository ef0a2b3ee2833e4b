import { jest } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import type { OrderReference } from '../../../src/eid-providers/eid-provider.js';
import { SimulatorProvider } from '../../../src/eid-providers/simulator/simulator.provider.js';
import { useE2eApp } from '../../support/e2e.js';

// The background collector on wall time, as in production: BankID's rule is a collect every 2 s,
// never more often than once a second (docs/architecture.md, "Sessions").
const WATCH_MS = 20_000;

describe('Session collector cadence', () => {
  const e2e = useE2eApp({ env: { SIMULATOR_START_TIMEOUT: '60s' }, withKey: true });

  afterEach(() => jest.restoreAllMocks());

  /** Records the wall-clock times at which the simulator is asked about each order. */
  function recordCollects(): Map<string, number[]> {
    const collectedAt = new Map<string, number[]>();
    const record = (references: OrderReference[]) => {
      for (const { orderRef } of references) collectedAt.set(orderRef, [...(collectedAt.get(orderRef) ?? []), Date.now()]);
    };
    const simulator = e2e.app.get(SimulatorProvider);
    const collectMany = simulator.collectMany.bind(simulator);
    const collect = simulator.collect.bind(simulator);
    jest.spyOn(simulator, 'collectMany').mockImplementation((references) => (record(references), collectMany(references)));
    jest.spyOn(simulator, 'collect').mockImplementation((reference) => (record([reference]), collect(reference)));
    return collectedAt;
  }

  const startOrder = async (): Promise<string> => {
    const started = await e2e.http
      .post('/api/v1/auth/simulator/start')
      .set('x-api-key', e2e.key)
      .send({ endUserIp: '192.0.2.10' })
      .expect(200);
    const [{ order_ref }] = await e2e.app.get(DataSource).query('SELECT order_ref FROM sessions WHERE id = $1', [started.body.sessionId]);
    return order_ref as string;
  };

  it(
    'should collect every pending session every 2 s (± 0.5 s), never skipping a tick',
    async () => {
      const collectedAt = recordCollects();
      const orderRefs = [await startOrder(), await startOrder(), await startOrder()];
      await sleep(WATCH_MS);

      for (const orderRef of orderRefs) {
        const times = collectedAt.get(orderRef) ?? [];
        const gaps = times.slice(1).map((at, i) => at - times[i]);
        expect(gaps.length).toBeGreaterThanOrEqual(WATCH_MS / 2_000 - 2);
        for (const gap of gaps) {
          expect(gap).toBeGreaterThanOrEqual(1_500);
          expect(gap).toBeLessThanOrEqual(2_500);
        }
      }
    },
    WATCH_MS + 30_000,
  );
});
