import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedPlatformEnv } from './env.validation.js';

export const consoleConfig = registerAs('console', () => {
  const env = validatedPlatformEnv();
  return {
    /** Login requests (code or validation) one client address may make per minute (docs/console.md). */
    loginPerMinute: env.CONSOLE_LOGIN_PER_MINUTE,
    /** The member token's lifetime, which the session cookie's Max-Age follows. */
    tokenTtlMs: env.JWT_TTL,
  };
});

export type ConsoleConfig = ConfigType<typeof consoleConfig>;
