import { resolve } from 'node:path';
import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedPlatformEnv } from './env.validation.js';

export const securityConfig = registerAs('security', () => {
  const env = validatedPlatformEnv();
  return {
    /** Base64 of 32 bytes; absent outside production, where a key is generated into dataDir. */
    dataEncryptionKey: env.DATA_ENCRYPTION_KEY,
    dataDir: resolve(env.DATA_DIR),
  };
});
export type SecurityConfig = ConfigType<typeof securityConfig>;
