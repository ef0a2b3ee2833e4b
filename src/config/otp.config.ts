import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedPlatformEnv } from './env.validation.js';

export const otpConfig = registerAs('otp', () => {
  const env = validatedPlatformEnv();
  return {
    delivery: env.OTP_DELIVERY,
    httpUrl: env.OTP_HTTP_URL,
    smtpUrl: env.SMTP_URL,
    smtpFrom: env.SMTP_FROM ?? `eid-gateway <no-reply@${new URL(env.PUBLIC_BASE_URL ?? 'http://localhost').hostname}>`,
    production: env.NODE_ENV === 'production',
    /** A code is valid this long (docs/otp-and-tokens.md: 5 minutes). */
    ttlMs: env.OTP_TTL,
    /** Tries per code; the last wrong one voids it. */
    maxAttempts: env.OTP_MAX_ATTEMPTS,
    /** At most one new code per user in this interval. */
    resendIntervalMs: env.OTP_RESEND_INTERVAL,
    // Per-user lockout across codes (OWASP: count failures per account, not only per IP). NIST 800-63B
    // allows up to 100 consecutive failures; 10 keeps a 6-digit code's guess odds at 1 in 100,000 per
    // quarter hour while a real user who mistypes a few times is not locked out.
    lockoutThreshold: 10,
    lockoutMs: 15 * 60_000,
    // Each further lockout within this window of the previous one lasts twice as long (docs/otp-and-tokens.md).
    lockoutMemoryMs: 24 * 60 * 60_000,
    /** Delivery that takes longer than this is a failed delivery. */
    deliveryTimeoutMs: 10_000,
  };
});

export type OtpConfig = ConfigType<typeof otpConfig>;
