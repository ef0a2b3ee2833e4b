import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BankIdConfig, BankIdEnvironmentConfig } from '../config/bankid.config.js';
import { EvidenceAuthority } from './evidence-authority.js';
import { EvidenceTrustRoots } from './evidence-trust-roots.js';
import { SimulatorEvidence } from './simulator-evidence.provider.js';

const source = {
  pfx: 'BANKID_TEST_PFX',
  passphrase: 'BANKID_TEST_PASSPHRASE',
  cert: 'BANKID_TEST_CERT',
  key: 'BANKID_TEST_KEY',
  ca: 'BANKID_TEST_CA',
  evidenceRoots: 'BANKID_TEST_EVIDENCE_ROOTS',
};
const config = (test: Partial<BankIdEnvironmentConfig>): BankIdConfig => ({
  environments: { test: { url: 'https://bankid.test', source, ...test } },
  timeoutMs: 5000,
  retryDelaysMs: [],
});

describe(EvidenceTrustRoots.name, () => {
  let simulator: SimulatorEvidence;
  let rootPem: string;
  let dir: string;

  beforeAll(async () => {
    simulator = new SimulatorEvidence((await EvidenceAuthority.generate('Simulator', new Date())).authority);
    rootPem = (await EvidenceAuthority.generate('BankID Root', new Date())).authority.certificatePem;
    dir = await mkdtemp(join(tmpdir(), 'evidence-roots-'));
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('should take BankID roots inline or from a file, for their environment only', async () => {
    await writeFile(join(dir, 'roots.pem'), `${rootPem}\n${rootPem}`);
    expect(new EvidenceTrustRoots(config({ evidenceRoots: rootPem }), simulator).forSession('bankid', 'test')).toEqual([rootPem.trim()]);
    const fromFile = new EvidenceTrustRoots(config({ evidenceRoots: join(dir, 'roots.pem') }), simulator);
    expect(fromFile.forSession('bankid', 'test')).toHaveLength(2);
    expect(fromFile.forSession('bankid', 'live')).toEqual([]);
  });

  it('should refuse to start on roots it cannot use, naming the variable and not the value', () => {
    expect(() => new EvidenceTrustRoots(config({ evidenceRoots: join(dir, 'missing.pem') }), simulator)).toThrow(
      'BANKID_TEST_EVIDENCE_ROOTS: cannot read the file (ENOENT)',
    );
    const notPem = '-----BEGIN CERTIFICATE-----\nnot-a-certificate\n-----END CERTIFICATE-----';
    expect(() => new EvidenceTrustRoots(config({ evidenceRoots: notPem }), simulator)).toThrow(
      /^BANKID_TEST_EVIDENCE_ROOTS holds no PEM certificates$/,
    );
  });

  it('should trust the simulator CA for simulator sessions of the test environment only', () => {
    const roots = new EvidenceTrustRoots(config({}), simulator);
    expect(roots.forSession('simulator', 'test')).toEqual(simulator.trustRoots);
    expect(roots.forSession('simulator', 'live')).toEqual([]);
    expect(roots.forSession('freja', 'test')).toEqual([]);
  });
});
