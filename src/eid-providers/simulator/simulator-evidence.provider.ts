import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Provider } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { securityConfig, type SecurityConfig } from '../../config/security.config.js';
import { sessionsConfig, type SessionsConfig } from '../../config/sessions.config.js';
import {
  EvidenceAuthority,
  type EvidenceAuthorityMaterial,
  type IssuedEvidence,
  type IssueEvidenceRequest,
} from '../shared/xml-evidence/evidence-authority.js';
import type { IdCardVerificationContent } from '../shared/xml-evidence/xades-signing.js';

const CA_FILE = 'simulator-ca.json';

/**
 * The simulator's BankID stand-in: it signs every simulator completion for real, and its CA is the one
 * root trusted for simulator sessions of the `test` environment, and for nothing else (docs/evidence.md).
 */
export class SimulatorEvidence {
  /** `null` where PROVIDERS leaves the simulator out: no CA, nothing trusted. */
  constructor(private readonly authority: EvidenceAuthority | null) {}

  issue(request: IssueEvidenceRequest): Promise<IssuedEvidence> {
    if (!this.authority) throw new Error('The simulator is not enabled (PROVIDERS)');
    return this.authority.issue(request);
  }

  /** The XAdES of an ID card verification (docs/idcard.md). */
  issueIdCardVerification(content: IdCardVerificationContent, now: Date): Promise<string> {
    if (!this.authority) throw new Error('The simulator is not enabled (PROVIDERS)');
    return this.authority.issueIdCardVerification(content, now);
  }

  get trustRoots(): readonly string[] {
    return this.authority ? [this.authority.certificatePem] : [];
  }
}

/**
 * The CA is generated at first start into DATA_DIR, like the other development secrets, so evidence
 * stored before a restart still verifies after it. A deployment without the simulator writes nothing.
 */
export const simulatorEvidenceProvider: Provider = {
  provide: SimulatorEvidence,
  inject: [securityConfig.KEY, sessionsConfig.KEY, Clock],
  useFactory: async (config: SecurityConfig, sessions: SessionsConfig, clock: Clock) => {
    if (!sessions.providers.includes('simulator')) return new SimulatorEvidence(null);
    const file = join(config.dataDir, CA_FILE);
    const read = async () => {
      const text = await readFile(file, 'utf8').catch(() => null);
      return text ? (JSON.parse(text) as EvidenceAuthorityMaterial) : null;
    };
    const existing = await read();
    if (existing) return new SimulatorEvidence(await EvidenceAuthority.load(existing));
    await mkdir(config.dataDir, { recursive: true });
    const { authority, material } = await EvidenceAuthority.generate('eid-gateway Simulator CA', clock.now());
    // Written aside, then linked into place: link() never overwrites, and a sibling worker starting at
    // the same time reads either no file or the whole of the one that won.
    const draft = `${file}.${randomBytes(6).toString('hex')}`;
    await writeFile(draft, JSON.stringify(material), { mode: 0o600, flag: 'wx' });
    try {
      await link(draft, file);
      return new SimulatorEvidence(authority);
    } catch (error) {
      const written = (error as NodeJS.ErrnoException).code === 'EEXIST' ? await read() : null;
      if (!written) throw error;
      return new SimulatorEvidence(await EvidenceAuthority.load(written));
    } finally {
      await unlink(draft);
    }
  },
};
