import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Inject, Injectable } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import { bankIdConfig, type BankIdConfig } from '../config/bankid.config.js';
import { SimulatorEvidence } from './simulator-evidence.provider.js';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Which roots a session's evidence must chain to (docs/evidence.md): the simulator CA for simulator
 * sessions of the `test` environment only, BankID's configured roots for BankID sessions of the key's
 * environment, and none otherwise, so evidence can never verify against another environment's roots.
 */
@Injectable()
export class EvidenceTrustRoots {
  private readonly bankId: Partial<Record<ApiKeyEnvironment, readonly string[]>> = {};

  constructor(
    @Inject(bankIdConfig.KEY) config: BankIdConfig,
    private readonly simulator: SimulatorEvidence,
  ) {
    for (const [environment, settings] of Object.entries(config.environments)) {
      if (settings?.evidenceRoots)
        this.bankId[environment as ApiKeyEnvironment] = loadRoots(settings.evidenceRoots, settings.source.evidenceRoots);
    }
  }

  forSession(provider: string, environment: ApiKeyEnvironment): readonly string[] {
    if (provider === 'simulator') return environment === 'test' ? this.simulator.trustRoots : [];
    if (provider === 'bankid') return this.bankId[environment] ?? [];
    return [];
  }
}

/** PEM text, or a file of PEM certificates; a bad value stops the start, naming the variable only. */
function loadRoots(value: string, variable: string): string[] {
  let text: string;
  try {
    text = value.trimStart().startsWith('-----BEGIN ') ? value : readFileSync(value, 'utf8');
  } catch (error) {
    throw new Error(`${variable}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  const roots = text.match(PEM_CERTIFICATE) ?? [];
  try {
    if (roots.length === 0) throw new Error('none');
    for (const root of roots) new X509Certificate(root);
  } catch {
    throw new Error(`${variable} holds no PEM certificates`);
  }
  return roots;
}
