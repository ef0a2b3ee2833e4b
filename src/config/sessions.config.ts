import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedEnv } from './env.validation.js';

export const sessionsConfig = registerAs('sessions', () => {
  const env = validatedEnv();
  return {
    providers: env.PROVIDERS,
    /** A pending session fails with expiredTransaction after this (BankID: about 3 minutes). */
    sessionTtlMs: env.SESSION_TTL,
    /** Personal data of a finished session is erased after this. */
    piiRetentionMs: env.SESSION_PII_RETENTION,
    /** An order nobody scans fails with startFailed after this (BankID: about 30 s). */
    simulatorStartTimeoutMs: env.SIMULATOR_START_TIMEOUT,
  };
});
export type SessionsConfig = ConfigType<typeof sessionsConfig>;
