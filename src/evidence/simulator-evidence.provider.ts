import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Provider } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { securityConfig, type SecurityConfig } from '../config/security.config.js';
import { EvidenceAuthority, type EvidenceAuthorityMaterial, type IssuedEvidence, type IssueEvidenceRequest } from './evidence-authority.js';

const CA_FILE = 'simulator-ca.json';

/**
 * The simulator's BankID stand-in: it signs every simulator completion for real, and its CA is the one
 * root trusted for simulator sessions of the `test` environment, and for nothing else (docs/evidence.md).
 */
export class SimulatorEvidence {
  constructor(private readonly authority: EvidenceAuthority) {}

  issue(request: IssueEvidenceRequest): Promise<IssuedEvidence> {
    return this.authority.issue(request);
  }

  get trustRoots(): readonly string[] {
    return [this.authority.certificatePem];
  }
}

/**
 * The CA is generated at first start into DATA_DIR, like the other development secrets, so evidence
 * stored before a restart still verifies after it.
 */
export const simulatorEvidenceProvider: Provider = {
  provide: SimulatorEvidence,
  inject: [securityConfig.KEY, Clock],
  useFactory: async (config: SecurityConfig, clock: Clock) => {
    const file = join(config.dataDir, CA_FILE);
    const read = async () => {
      const text = await readFile(file, 'utf8').catch(() => null);
      return text ? (JSON.parse(text) as EvidenceAuthorityMaterial) : null;
    };
    const existing = await read();
    if (existing) return new SimulatorEvidence(await EvidenceAuthority.load(existing));
    await mkdir(config.dataDir, { recursive: true });
    const { authority, material } = await EvidenceAuthority.generate('eid-gateway Simulator CA', clock.now());
    try {
      // 'wx': never overwrite a CA another process (a sibling worker) created meanwhile; use its CA.
      await writeFile(file, JSON.stringify(material), { mode: 0o600, flag: 'wx' });
      return new SimulatorEvidence(authority);
    } catch (error) {
      const written = (error as NodeJS.ErrnoException).code === 'EEXIST' ? await read() : null;
      if (!written) throw error;
      return new SimulatorEvidence(await EvidenceAuthority.load(written));
    }
  },
};
