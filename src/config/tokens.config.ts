import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedPlatformEnv } from './env.validation.js';
import { serverConfig } from './server.config.js';

export const tokensConfig = registerAs('tokens', () => {
  const env = validatedPlatformEnv();
  return {
    issuer: env.JWT_ISSUER ?? serverConfig().publicBaseUrl,
    audience: env.JWT_AUDIENCE,
    ttlMs: env.JWT_TTL,
    // Tolerated clock difference between replicas and verifiers, on `exp`/`iat` and on key retirement.
    clockSkewMs: 60_000,
  };
});

export type TokensConfig = ConfigType<typeof tokensConfig>;
