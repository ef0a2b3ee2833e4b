import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BankIdConfig, BankIdEnvironmentConfig } from './bankid.config.js';
import { EvidenceAuthority } from '../shared/xml-evidence/evidence-authority.js';
import { BankIdEvidenceRoots } from './bankid-evidence-roots.js';

const source = {
  pfx: 'BANKID_TEST_PFX',
  passphrase: 'BANKID_TEST_PASSPHRASE',
  cert: 'BANKID_TEST_CERT',
  key: 'BANKID_TEST_KEY',
  ca: 'BANKID_TEST_CA',
  evidenceRoots: 'BANKID_TEST_EVIDENCE_ROOTS',
};
const config = (test: Partial<BankIdEnvironmentConfig>): BankIdConfig => ({
  environments: { test: { url: 'https://bankid.test', idCardUrl: 'https://idcard.bankid.test/rp/v1/verify', source, ...test } },
  timeoutMs: 5000,
  retryDelaysMs: [],
});

describe(BankIdEvidenceRoots.name, () => {
  let rootPem: string;
  let dir: string;

  beforeAll(async () => {
    rootPem = (await EvidenceAuthority.generate('BankID Root', new Date())).authority.certificatePem;
    dir = await mkdtemp(join(tmpdir(), 'evidence-roots-'));
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('should take BankID roots inline or from a file, for their environment only', async () => {
    await writeFile(join(dir, 'roots.pem'), `${rootPem}\n${rootPem}`);
    expect(new BankIdEvidenceRoots(config({ evidenceRoots: rootPem })).forEnvironment('test')).toEqual([rootPem.trim()]);
    const fromFile = new BankIdEvidenceRoots(config({ evidenceRoots: join(dir, 'roots.pem') }));
    expect(fromFile.forEnvironment('test')).toHaveLength(2);
    expect(fromFile.forEnvironment('live')).toEqual([]);
  });

  it('should refuse to start on roots it cannot use, naming the variable and not the value', () => {
    expect(() => new BankIdEvidenceRoots(config({ evidenceRoots: join(dir, 'missing.pem') }))).toThrow(
      'BANKID_TEST_EVIDENCE_ROOTS: cannot read the file (ENOENT)',
    );
    const notPem = '-----BEGIN CERTIFICATE-----\nnot-a-certificate\n-----END CERTIFICATE-----';
    expect(() => new BankIdEvidenceRoots(config({ evidenceRoots: notPem }))).toThrow(
      /^BANKID_TEST_EVIDENCE_ROOTS holds no PEM certificates$/,
    );
  });
});
