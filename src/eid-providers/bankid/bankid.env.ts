import { z } from 'zod';
import { duration, durationList, httpUrl, optionalText, type EnvContext, type EnvIssue } from '../../config/env-rules.js';
import { checkMutualTlsEnv } from '../shared/mutual-tls-env.js';

/** BankID's variables (docs/bankid.md, "Configuration"), validated at start with the rest. */
export const BANKID_ENV = {
  BANKID_URL: httpUrl.default('https://appapi2.bankid.com/rp/v6.0'),
  BANKID_TEST_URL: httpUrl.default('https://appapi2.test.bankid.com/rp/v6.0'),
  // The digital ID card's own API, reached with the same RP certificate (docs/idcard.md).
  BANKID_IDCARD_URL: httpUrl.default('https://idcardapi.bankid.com/rp/v1/verify'),
  BANKID_TEST_IDCARD_URL: httpUrl.default('https://idcardapi.test.bankid.com/rp/v1/verify'),
  BANKID_PFX: optionalText,
  BANKID_PASSPHRASE: optionalText,
  BANKID_CERT: optionalText,
  BANKID_KEY: optionalText,
  BANKID_CA: optionalText,
  BANKID_EVIDENCE_ROOTS: optionalText,
  // The test environment's own RP certificate, for deployments that serve test and live keys alike.
  BANKID_TEST_PFX: optionalText,
  BANKID_TEST_PASSPHRASE: optionalText,
  BANKID_TEST_CERT: optionalText,
  BANKID_TEST_KEY: optionalText,
  BANKID_TEST_CA: optionalText,
  BANKID_TEST_EVIDENCE_ROOTS: optionalText,
  BANKID_TIMEOUT: duration('5s'),
  BANKID_RETRY_SCHEDULE: durationList('250ms,1s'),
};

type BankIdEnv = z.infer<z.ZodObject<typeof BANKID_ENV>>;

/** The cross-checks of BankID's variables. */
export function checkBankIdEnv(env: BankIdEnv, { production, providers }: EnvContext, issue: EnvIssue): void {
  checkMutualTlsEnv(env, ['BANKID', 'BANKID_TEST'], production, issue);
  if (!providers.includes('bankid')) return;
  const live = Boolean(env.BANKID_PFX || env.BANKID_CERT);
  const test = Boolean(env.BANKID_TEST_PFX || env.BANKID_TEST_CERT) || live;
  if (!live && !test) issue('BANKID_PFX', 'or BANKID_CERT + BANKID_KEY (the RP certificate) is required when PROVIDERS includes bankid');
  // BankID's servers are signed by BankID's own CA, which must be pinned (not the public web PKI).
  if (live && env.BANKID_URL.startsWith('https:') && !env.BANKID_CA)
    issue('BANKID_CA', "(BankID's CA certificate) is required when PROVIDERS includes bankid");
  // The TLS CA does not issue users' certificates: defaulting to it would make every live evidence check fail quietly.
  if (production && live && !env.BANKID_EVIDENCE_ROOTS)
    issue('BANKID_EVIDENCE_ROOTS', "(the root of BankID's end-user certificates) is required when NODE_ENV=production");
  if (test && env.BANKID_TEST_URL.startsWith('https:') && !env.BANKID_TEST_CA && !env.BANKID_CA)
    issue('BANKID_TEST_CA', "or BANKID_CA (BankID's test CA certificate) is required for the test environment");
}
