import { z } from 'zod';
import { duration, httpUrl, optionalText, type EnvContext, type EnvIssue } from '../../config/env-rules.js';
import { checkMutualTlsEnv } from '../shared/mutual-tls-env.js';

/**
 * Freja eID's variables (docs/freja.md, "Configuration"): the same key-material rules as BankID's,
 * plus its result signing certificates. Validated at start with the rest.
 */
export const FREJA_ENV = {
  FREJA_URL: httpUrl.default('https://services.prod.frejaeid.com'),
  FREJA_TEST_URL: httpUrl.default('https://services.test.frejaeid.com'),
  FREJA_PFX: optionalText,
  FREJA_PASSPHRASE: optionalText,
  FREJA_CERT: optionalText,
  FREJA_KEY: optionalText,
  FREJA_CA: optionalText,
  FREJA_TEST_PFX: optionalText,
  FREJA_TEST_PASSPHRASE: optionalText,
  FREJA_TEST_CERT: optionalText,
  FREJA_TEST_KEY: optionalText,
  FREJA_TEST_CA: optionalText,
  FREJA_JWS_CERTS: optionalText,
  FREJA_TEST_JWS_CERTS: optionalText,
  FREJA_TIMEOUT: duration('5s'),
};

type FrejaEnv = z.infer<z.ZodObject<typeof FREJA_ENV>>;

/** The cross-checks of Freja's variables. */
export function checkFrejaEnv(env: FrejaEnv, { production, providers }: EnvContext, issue: EnvIssue): void {
  checkMutualTlsEnv(env, ['FREJA', 'FREJA_TEST'], production, issue);
  if (!providers.includes('freja')) return;
  // An environment is served when it has an RP certificate and Freja's result signing certificates.
  const live = Boolean(env.FREJA_PFX || env.FREJA_CERT);
  const test = Boolean(env.FREJA_TEST_PFX || env.FREJA_TEST_CERT) || live;
  if (!live && !test) issue('FREJA_PFX', 'or FREJA_CERT + FREJA_KEY (the RP certificate) is required when PROVIDERS includes freja');
  if (!env.FREJA_JWS_CERTS && !env.FREJA_TEST_JWS_CERTS)
    issue('FREJA_JWS_CERTS', "or FREJA_TEST_JWS_CERTS (Freja's result signing certificates) is required when PROVIDERS includes freja");
  if (env.FREJA_JWS_CERTS && !live) issue('FREJA_PFX', 'or FREJA_CERT + FREJA_KEY is required for live keys (FREJA_JWS_CERTS is set)');
  if (env.FREJA_JWS_CERTS && env.FREJA_URL.startsWith('https:') && !env.FREJA_CA)
    issue('FREJA_CA', "(the CA of Freja's server certificate) is required for live keys");
  if (env.FREJA_TEST_JWS_CERTS && test && env.FREJA_TEST_URL.startsWith('https:') && !env.FREJA_TEST_CA && !env.FREJA_CA)
    issue('FREJA_TEST_CA', "or FREJA_CA (the CA of Freja's test server certificate) is required for test keys");
}
