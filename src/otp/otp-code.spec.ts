import { randomBytes } from 'node:crypto';
import { CODE_PATTERN, codeHmac, derivedUserGuid, generateCode, unmatchableHmac, zonelessUtc } from './otp-code.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('OTP codes', () => {
  it('should generate six digits, spread evenly over every position', () => {
    const codes = Array.from({ length: 10_000 }, generateCode);
    expect(codes.every((code) => CODE_PATTERN.test(code))).toBe(true);
    // χ² over the 60 (position, digit) cells, 54 degrees of freedom: a fair generator exceeds 118 once in a million runs.
    const counts = Array.from({ length: 6 }, () => new Array<number>(10).fill(0));
    for (const code of codes) [...code].forEach((digit, position) => counts[position][Number(digit)]++);
    const expected = codes.length / 10;
    const chiSquare = counts.flat().reduce((sum, observed) => sum + (observed - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(118);
  });

  it('should bind the HMAC to the secret, the userGuid and the code', () => {
    const secret = randomBytes(32);
    const guid = '7f1d2f0a-4b7c-4a7e-9b1e-2d7c5c1e0a11';
    const base = codeHmac(secret, guid, '123456');
    expect(codeHmac(secret, guid, '123456').equals(base)).toBe(true);
    expect(codeHmac(secret, guid, '123457').equals(base)).toBe(false);
    expect(codeHmac(secret, '0f1d2f0a-4b7c-4a7e-9b1e-2d7c5c1e0a11', '123456').equals(base)).toBe(false);
    expect(codeHmac(randomBytes(32), guid, '123456').equals(base)).toBe(false);
    expect(base.toString('hex')).not.toContain('123456');
  });

  it('should give an unknown user a stable, secret-dependent, UUID-shaped userGuid', () => {
    const secret = randomBytes(32);
    const team = 'a4a2c1f6-0e0e-4a57-8f3f-1e6c3f0d9b11';
    const guid = derivedUserGuid(secret, team, { email: 'nobody@example.com' });
    expect(guid).toMatch(UUID_V4);
    expect(derivedUserGuid(secret, team, { email: 'nobody@example.com' })).toBe(guid);
    expect(derivedUserGuid(secret, team, { phone: '+46700000000' })).not.toBe(guid);
    expect(derivedUserGuid(randomBytes(32), team, { email: 'nobody@example.com' })).not.toBe(guid);
  });

  it('should store a random hash for unknown users', () => {
    expect(unmatchableHmac().equals(unmatchableHmac())).toBe(false);
    expect(unmatchableHmac()).toHaveLength(32);
  });

  it('should format UTC without a zone designator', () => {
    expect(zonelessUtc(new Date('2026-11-21T10:05:00Z'))).toBe('2026-11-21T10:05:00.000');
  });
});
