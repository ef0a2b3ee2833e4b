import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FactoryProvider } from '@nestjs/common';
import { TestClock } from '../../../test/support/test-clock.js';
import { SimulatorEvidence, simulatorEvidenceProvider } from './simulator-evidence.provider.js';

const create = (dataDir: string, providers: string[]) =>
  (simulatorEvidenceProvider as FactoryProvider<Promise<SimulatorEvidence>>).useFactory({ dataDir }, { providers }, new TestClock());

describe('simulatorEvidenceProvider', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'simulator-ca-'));
  });

  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('should write no CA and trust nothing where the simulator is not enabled', async () => {
    const evidence = await create(dataDir, ['bankid']);
    expect(evidence.trustRoots).toEqual([]);
    expect(await readdir(dataDir)).toEqual([]);
    expect(() =>
      evidence.issue({
        user: { personalNumber: '199001012393', name: 'A B', givenName: 'A', surname: 'B' },
        funcId: 'Identification',
        now: new Date(),
      }),
    ).toThrow('not enabled');
  });

  it('should let workers starting together share the one CA the first of them wrote', async () => {
    const workers = await Promise.all([1, 2, 3].map(() => create(dataDir, ['simulator'])));
    const again = await create(dataDir, ['simulator']);
    expect(again.trustRoots).toHaveLength(1);
    for (const worker of workers) expect(worker.trustRoots).toEqual(again.trustRoots);
    expect(await readdir(dataDir)).toEqual(['simulator-ca.json']);
  });
});
