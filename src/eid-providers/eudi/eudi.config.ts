import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedEnv } from '../../app.env.js';
import { DEFAULT_CREDENTIAL_QUERY } from './dcql.js';
import { eudiEnabled } from './eudi.env.js';

/** The wallet verifier's settings, as the start's validation read them (eudi.env.ts). */
export const eudiConfig = registerAs('eudi', () => {
  const env = validatedEnv();
  return {
    enabled: eudiEnabled(env.PROVIDERS),
    /** The simulator wallet and its test PID issuer come with the simulator (docs/eudi-wallet.md). */
    simulatorWallet: eudiEnabled(env.PROVIDERS) && env.PROVIDERS.includes('simulator'),
    verifierCertificates: env.EUDI_VERIFIER_CERT,
    verifierKey: env.EUDI_VERIFIER_KEY,
    trustAnchors: { live: env.EUDI_TRUST_ANCHORS, test: env.EUDI_TEST_TRUST_ANCHORS },
    credentialQuery: env.EUDI_CREDENTIALS ?? DEFAULT_CREDENTIAL_QUERY,
    /** How long a wallet may take to fetch a status list; the person waits on it. */
    statusListTimeoutMs: 5_000,
  };
});
export type EudiConfig = ConfigType<typeof eudiConfig>;
