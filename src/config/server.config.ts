import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedPlatformEnv } from './env.validation.js';

export const serverConfig = registerAs('server', () => {
  const env = validatedPlatformEnv();
  return {
    nodeEnv: env.NODE_ENV,
    production: env.NODE_ENV === 'production',
    port: env.PORT,
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    anonymousCacheTtlMs: env.ANONYMOUS_CACHE_TTL,
    publicRouteLimitPerMinute: env.PUBLIC_ROUTE_LIMIT_PER_MINUTE,
    loginStartLimitPerMinute: env.LOGIN_START_LIMIT_PER_MINUTE,
  };
});
export type ServerConfig = ConfigType<typeof serverConfig>;
