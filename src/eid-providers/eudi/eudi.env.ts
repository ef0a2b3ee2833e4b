import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import type { z } from 'zod';
import { fileVariable, type EnvContext, type EnvIssue } from '../../config/env-rules.js';
import { parseCredentialQuery, type CredentialQuery } from './dcql.js';

// A PEM bundle's certificates; the pattern is anchored on fixed markers with a lazy body: no backtracking blow-up.
const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM bundle, each checked to parse; problems say what is wrong, never the content. */
export function parseCertificateBundle(text: string): { value: string[] } | { problems: string[] } {
  const pems = text.match(PEM_CERTIFICATE) ?? [];
  if (pems.length === 0) return { problems: ['must hold at least one PEM certificate'] };
  try {
    for (const pem of pems) new X509Certificate(pem);
  } catch {
    return { problems: ['holds a certificate that does not parse'] };
  }
  return { value: pems };
}

const certificates = fileVariable<string[]>([], parseCertificateBundle);

/**
 * The EUDI Wallet verifier's variables (docs/eudi-wallet.md, "Configuration"). Each names a file, read
 * and checked at start with the rest: the access certificate chain and its key, the issuers' CAs for
 * live and for test keys, and the credential query.
 */
export const EUDI_ENV = {
  EUDI_VERIFIER_CERT: certificates,
  EUDI_VERIFIER_KEY: fileVariable<KeyObject | undefined>(undefined, (text) => {
    try {
      return { value: createPrivateKey(text) };
    } catch {
      return { problems: ['is not a readable PEM private key'] };
    }
  }),
  EUDI_TRUST_ANCHORS: certificates,
  EUDI_TEST_TRUST_ANCHORS: certificates,
  EUDI_CREDENTIALS: fileVariable<CredentialQuery | undefined>(undefined, (text) => {
    const parsed = parseCredentialQuery(text);
    return 'problem' in parsed ? { problems: [parsed.problem] } : { value: parsed.query };
  }),
};

type EudiEnv = z.infer<z.ZodObject<typeof EUDI_ENV>>;

/** Whether PROVIDERS enables the wallet, by its name or its kind. */
export const eudiEnabled = (providers: readonly string[]): boolean => providers.includes('eudi') || providers.includes('openid4vp');

/** The cross-checks: the certificate and key come together; production names its own access certificate and anchors. */
export function checkEudiEnv(env: EudiEnv, { production, providers }: EnvContext, issue: EnvIssue): void {
  if (env.EUDI_VERIFIER_CERT.length > 0 && !env.EUDI_VERIFIER_KEY) issue('EUDI_VERIFIER_KEY', 'is required with EUDI_VERIFIER_CERT');
  if (env.EUDI_VERIFIER_KEY && env.EUDI_VERIFIER_CERT.length === 0) issue('EUDI_VERIFIER_CERT', 'is required with EUDI_VERIFIER_KEY');
  if (!eudiEnabled(providers) || !production) return;
  if (env.EUDI_VERIFIER_CERT.length === 0)
    issue('EUDI_VERIFIER_CERT', '(the RP access certificate chain) is required when PROVIDERS includes eudi and NODE_ENV=production');
  if (env.EUDI_TRUST_ANCHORS.length === 0 && env.EUDI_TEST_TRUST_ANCHORS.length === 0)
    issue('EUDI_TRUST_ANCHORS', "or EUDI_TEST_TRUST_ANCHORS (the issuers' CAs) is required when PROVIDERS includes eudi");
}
