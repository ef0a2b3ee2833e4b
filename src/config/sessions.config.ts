import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedPlatformEnv } from './env.validation.js';

export const sessionsConfig = registerAs('sessions', () => {
  const env = validatedPlatformEnv();
  return {
    providers: env.PROVIDERS,
    /** A pending session fails with expiredTransaction after this (SESSION_TTL, docs/architecture.md). */
    sessionTtlMs: env.SESSION_TTL,
    /** Personal data of a finished session is erased after this. */
    piiRetentionMs: env.SESSION_PII_RETENTION,
  };
});
export type SessionsConfig = ConfigType<typeof sessionsConfig>;
