import { createHmac, randomBytes, randomInt } from 'node:crypto';

export const CODE_PATTERN = /^\d{6}$/;

/** Six digits, uniform, from the CSPRNG (NIST 800-63B: ≥ 20 bits from an approved generator). */
export const generateCode = (): string => randomInt(0, 1_000_000).toString().padStart(6, '0');

/**
 * The stored form of a code: HMAC-SHA256 keyed with the server's OTP secret and bound to its userGuid.
 * A plain hash of a 6-digit code falls to a million guesses; without the key a database dump gives nothing.
 */
export const codeHmac = (secret: Buffer, userGuid: string, code: string): Buffer =>
  createHmac('sha256', secret).update(`otp-code:${userGuid}:${code}`).digest();

/** Stored for an unknown user: random bytes that no code's HMAC will ever equal. */
export const unmatchableHmac = (): Buffer => randomBytes(32);

/**
 * The userGuid answered for a phone or e-mail that is no user of the team: the same on every request
 * (a keyed hash, so nobody without the secret can tell it from a real user's), laid out as a version 4
 * UUID like real user ids.
 */
export function derivedUserGuid(secret: Buffer, teamId: string, contact: { email?: string; phone?: string }): string {
  const bytes = createHmac('sha256', secret)
    .update(`unknown-user:${teamId}:${contact.email ?? ''}:${contact.phone ?? ''}`)
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The v1/v2 APIs' date-time "without zone designator, UTC": `2026-11-21T10:05:00.000`. */
export const zonelessUtc = (date: Date): string => date.toISOString().slice(0, -1);
