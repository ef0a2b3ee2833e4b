import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedPlatformEnv } from './env.validation.js';

export const protectionConfig = registerAs('protection', () => {
  const env = validatedPlatformEnv();
  return {
    /** Counters and blocks live in Redis when set, else in PostgreSQL. */
    redisUrl: env.REDIS_URL,
    /** Prefix of every Redis key, so services (or test runs) can share one Redis. */
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    ipBlock: {
      /** Failed attempts from one address within `windowMs` that block it. */
      threshold: env.IP_BLOCK_THRESHOLD,
      windowMs: env.IP_BLOCK_WINDOW,
      durationMs: env.IP_BLOCK_DURATION,
    },
    /** Addresses and CIDRs never blocked nor counted (an RP's egress addresses). */
    ipBlockExempt: env.IP_BLOCK_EXEMPT,
  };
});
export type ProtectionConfig = ConfigType<typeof protectionConfig>;
