import { registerAs, type ConfigType } from '@nestjs/config';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import type { MutualTlsCredentials } from '../shared/mutual-tls.js';
import { validatedEnv, type Env } from '../../app.env.js';

/** One Freja environment: the RP credentials (BankID's rules for key material) and the result signing certificates. */
export interface FrejaEnvironmentConfig extends MutualTlsCredentials {
  url: string;
  /** Path of a PEM file with Freja's result signing certificates. */
  jwsCerts: string;
  jwsCertsVariable: string;
}

type Prefix = 'FREJA' | 'FREJA_TEST';

function credentials(env: Env, prefix: Prefix, caPrefix: Prefix): MutualTlsCredentials | null {
  if (!env[`${prefix}_PFX`] && !env[`${prefix}_CERT`]) return null;
  return {
    source: {
      pfx: `${prefix}_PFX`,
      passphrase: `${prefix}_PASSPHRASE`,
      cert: `${prefix}_CERT`,
      key: `${prefix}_KEY`,
      ca: `${caPrefix}_CA`,
    },
    pfx: env[`${prefix}_PFX`],
    passphrase: env[`${prefix}_PASSPHRASE`],
    cert: env[`${prefix}_CERT`],
    key: env[`${prefix}_KEY`],
    ca: env[`${caPrefix}_CA`],
  };
}

export const frejaConfig = registerAs('freja', () => {
  const env = validatedEnv();
  const environments: Partial<Record<ApiKeyEnvironment, FrejaEnvironmentConfig>> = {};
  if (env.PROVIDERS.includes('freja')) {
    const live = credentials(env, 'FREJA', 'FREJA');
    if (live && env.FREJA_JWS_CERTS)
      environments.live = { ...live, url: env.FREJA_URL, jwsCerts: env.FREJA_JWS_CERTS, jwsCertsVariable: 'FREJA_JWS_CERTS' };
    // Test keys use the test environment's own certificate when given, else the one RP certificate.
    const testCa: Prefix = env.FREJA_TEST_CA ? 'FREJA_TEST' : 'FREJA';
    const test = credentials(env, 'FREJA_TEST', testCa) ?? credentials(env, 'FREJA', testCa);
    if (test && env.FREJA_TEST_JWS_CERTS)
      environments.test = {
        ...test,
        url: env.FREJA_TEST_URL,
        jwsCerts: env.FREJA_TEST_JWS_CERTS,
        jwsCertsVariable: 'FREJA_TEST_JWS_CERTS',
      };
  }
  return {
    environments,
    /** Each call; the collector asks again 2 s later, so nothing is retried within one. */
    timeoutMs: env.FREJA_TIMEOUT,
  };
});
export type FrejaConfig = ConfigType<typeof frejaConfig>;
