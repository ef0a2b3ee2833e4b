import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedPlatformEnv } from './env.validation.js';

export const auditConfig = registerAs('audit', () => {
  const env = validatedPlatformEnv();
  return {
    /** Entries older than this are deleted by the purge job (docs/audit.md). */
    retentionMs: env.AUDIT_RETENTION,
  };
});
export type AuditConfig = ConfigType<typeof auditConfig>;
