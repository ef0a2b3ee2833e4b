import type { EnvIssue } from '../../config/env-rules.js';

type Variables = Readonly<Record<string, unknown>>;

/**
 * The client certificate rules of a provider that uses mutual TLS (BankID, Freja eID): per prefix
 * (`BANKID`, `BANKID_TEST`, …) a PKCS#12 file or a PEM certificate and key, never both; and its URLs
 * over HTTPS in production (plain HTTP is for local fakes only).
 */
export function checkMutualTlsEnv(env: Variables, prefixes: readonly string[], production: boolean, issue: EnvIssue): void {
  for (const prefix of prefixes) {
    const [pfx, cert, key] = [env[`${prefix}_PFX`], env[`${prefix}_CERT`], env[`${prefix}_KEY`]];
    if (pfx && (cert || key)) issue(`${prefix}_PFX`, `cannot be combined with ${prefix}_CERT/${prefix}_KEY`);
    if (Boolean(cert) !== Boolean(key)) issue(`${prefix}_CERT`, `and ${prefix}_KEY must be given together`);
  }
  for (const prefix of prefixes) {
    const url = env[`${prefix}_URL`];
    if (production && typeof url === 'string' && url.startsWith('http:'))
      issue(`${prefix}_URL`, 'must be an https URL when NODE_ENV=production');
  }
}
