import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedPlatformEnv } from './env.validation.js';

export const webhooksConfig = registerAs('webhooks', () => {
  const env = validatedPlatformEnv();
  return {
    /** Dev and tests only: lets endpoints point at loopback and private networks (docs/webhooks.md). */
    allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    /** Personal data never crosses the internet in clear text: production endpoints must be https. */
    requireHttps: env.NODE_ENV === 'production',
    /** Delays before the 2nd, 3rd, … attempt; after the last one the message is failed. */
    retryScheduleMs: env.WEBHOOK_RETRY_SCHEDULE,
    /** One attempt, DNS to the last byte read, must finish within this. */
    timeoutMs: env.WEBHOOK_TIMEOUT,
    /** Attempts in flight to one endpoint from one replica (docs/webhooks.md, fairness). */
    endpointConcurrency: env.WEBHOOK_ENDPOINT_CONCURRENCY,
    /** Payloads carry personal data: erased this long after the delivery ends, like sessions' (docs/webhooks.md). */
    payloadRetentionMs: env.SESSION_PII_RETENTION,
  };
});
export type WebhooksConfig = ConfigType<typeof webhooksConfig>;
