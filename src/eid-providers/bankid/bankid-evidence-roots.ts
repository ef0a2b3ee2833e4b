import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Inject, Injectable } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { bankIdConfig, type BankIdConfig } from './bankid.config.js';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Which roots a BankID session's evidence must chain to (docs/evidence.md): the configured roots of
 * the key's environment, none otherwise, so evidence can never verify against another environment's roots.
 */
@Injectable()
export class BankIdEvidenceRoots {
  private readonly roots: Partial<Record<ApiKeyEnvironment, readonly string[]>> = {};

  constructor(@Inject(bankIdConfig.KEY) config: BankIdConfig) {
    for (const [environment, settings] of Object.entries(config.environments)) {
      if (settings?.evidenceRoots)
        this.roots[environment as ApiKeyEnvironment] = loadRoots(settings.evidenceRoots, settings.source.evidenceRoots);
    }
  }

  forEnvironment(environment: ApiKeyEnvironment): readonly string[] {
    return this.roots[environment] ?? [];
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
