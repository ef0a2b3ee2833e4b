import { registerAs, type ConfigType } from '@nestjs/config';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { validatedEnv, type Env } from '../../app.env.js';

/** Where one BankID environment is and the RP credentials for it. Key material: a file path or inline (see docs/bankid.md). */
export interface BankIdEnvironmentConfig {
  url: string;
  /** The digital ID card API's verify endpoint (docs/idcard.md). */
  idCardUrl: string;
  /** The variable each value came from, so errors name it without echoing key material. */
  source: { pfx: string; passphrase: string; cert: string; key: string; ca: string; evidenceRoots: string };
  pfx?: string;
  passphrase?: string;
  cert?: string;
  key?: string;
  ca?: string;
  /** The roots user certificates in completion evidence must chain to (docs/evidence.md); default `ca`. */
  evidenceRoots?: string;
}

interface Ca {
  value?: string;
  variable: string;
}

/** The credentials under one prefix, or null when that prefix has no RP certificate. */
function environment(
  env: Env,
  prefix: 'BANKID' | 'BANKID_TEST',
  urls: { url: string; idCardUrl: string },
  ca: Ca,
  roots: Ca,
): BankIdEnvironmentConfig | null {
  if (!env[`${prefix}_PFX`] && !env[`${prefix}_CERT`]) return null;
  return {
    ...urls,
    source: {
      pfx: `${prefix}_PFX`,
      passphrase: `${prefix}_PASSPHRASE`,
      cert: `${prefix}_CERT`,
      key: `${prefix}_KEY`,
      ca: ca.variable,
      evidenceRoots: roots.variable,
    },
    pfx: env[`${prefix}_PFX`],
    passphrase: env[`${prefix}_PASSPHRASE`],
    cert: env[`${prefix}_CERT`],
    key: env[`${prefix}_KEY`],
    ca: ca.value,
    evidenceRoots: roots.value,
  };
}

export const bankIdConfig = registerAs('bankid', () => {
  const env = validatedEnv();
  const environments: Partial<Record<ApiKeyEnvironment, BankIdEnvironmentConfig>> = {};
  if (env.PROVIDERS.includes('bankid')) {
    const testCa: Ca = env.BANKID_TEST_CA
      ? { value: env.BANKID_TEST_CA, variable: 'BANKID_TEST_CA' }
      : { value: env.BANKID_CA, variable: 'BANKID_CA' };
    const liveCa: Ca = { value: env.BANKID_CA, variable: 'BANKID_CA' };
    const liveRoots: Ca = env.BANKID_EVIDENCE_ROOTS ? { value: env.BANKID_EVIDENCE_ROOTS, variable: 'BANKID_EVIDENCE_ROOTS' } : liveCa;
    const testRoots: Ca = env.BANKID_TEST_EVIDENCE_ROOTS
      ? { value: env.BANKID_TEST_EVIDENCE_ROOTS, variable: 'BANKID_TEST_EVIDENCE_ROOTS' }
      : testCa;
    const liveUrls = { url: env.BANKID_URL, idCardUrl: env.BANKID_IDCARD_URL };
    const testUrls = { url: env.BANKID_TEST_URL, idCardUrl: env.BANKID_TEST_IDCARD_URL };
    const live = environment(env, 'BANKID', liveUrls, liveCa, liveRoots);
    // Test keys use the test environment's own certificate when given, else the one RP certificate.
    const test = environment(env, 'BANKID_TEST', testUrls, testCa, testRoots) ?? environment(env, 'BANKID', testUrls, testCa, testRoots);
    if (live) environments.live = live;
    if (test) environments.test = test;
  }
  return {
    environments,
    /** Each attempt of one call; BankID answers in well under a second when healthy. */
    timeoutMs: env.BANKID_TIMEOUT,
    /** Waits before the retries of maintenance, internalError, timeouts and dropped connections. */
    retryDelaysMs: env.BANKID_RETRY_SCHEDULE,
  };
});
export type BankIdConfig = ConfigType<typeof bankIdConfig>;
