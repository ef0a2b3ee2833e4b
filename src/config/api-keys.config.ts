import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedPlatformEnv } from './env.validation.js';

export const apiKeysConfig = registerAs('apiKeys', () => {
  const env = validatedPlatformEnv();
  return {
    /** How often each process writes the last-use times it noted, in one statement (docs/security.md, "Last used"). */
    lastUsedFlushIntervalMs: env.API_KEY_LAST_USED_FLUSH_INTERVAL,
  };
});
export type ApiKeysConfig = ConfigType<typeof apiKeysConfig>;
