import { resolve } from 'node:path';
import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedPlatformEnv } from './env.validation.js';

export const databaseConfig = registerAs('database', () => {
  const env = validatedPlatformEnv();
  return {
    // Without a URL the service runs on the embedded PostgreSQL (PGlite) kept under dataDir.
    url: env.DATABASE_URL,
    dataDir: resolve(env.DATA_DIR),
    queryTimeoutMs: env.DATABASE_QUERY_TIMEOUT,
  };
});
export type DatabaseConfig = ConfigType<typeof databaseConfig>;
