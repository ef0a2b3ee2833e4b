import { randomBytes } from 'node:crypto';
import { KioskTokenSigner } from './kiosk-token.js';

describe(KioskTokenSigner.name, () => {
  const signer = new KioskTokenSigner(randomBytes(32));
  const session = '6f1c2a9e-3b7d-4c58-9e21-0a4b5c6d7e8f';
  const expiresAt = new Date('2026-11-21T10:04:00.000Z');
  const before = new Date('2026-11-21T10:03:59.000Z');

  it('should accept its own token for the session until it expires', () => {
    const token = signer.issue(session, expiresAt);
    expect(token).toMatch(/^[A-Za-z0-9_-]{28}$/);
    expect(signer.check(token, session, before)).toBe('valid');
    expect(signer.check(token, session.toUpperCase(), before)).toBe('valid');
    expect(signer.check(token, session, expiresAt)).toBe('expired');
  });

  it('should refuse it for another session, from another secret, or altered', () => {
    const token = signer.issue(session, expiresAt);
    expect(signer.check(token, '00000000-0000-4000-8000-000000000000', before)).toBe('invalid');
    expect(new KioskTokenSigner(randomBytes(32)).check(token, session, before)).toBe('invalid');
    // A later expiry written into the token breaks its MAC.
    const bytes = Buffer.from(token, 'base64url');
    bytes.writeUInt32BE(bytes.readUInt32BE(1) + 3600, 1);
    expect(signer.check(bytes.toString('base64url'), session, before)).toBe('invalid');
    const flipped = Buffer.from(token, 'base64url');
    flipped[20] ^= 1;
    expect(signer.check(flipped.toString('base64url'), session, before)).toBe('invalid');
  });

  it('should let a watch token show the session but never open its app, and a launch token do both', () => {
    const watch = signer.issue(session, expiresAt, 'watch');
    expect(signer.check(watch, session, before)).toBe('valid');
    expect(signer.check(watch, session, before, 'launch')).toBe('invalid');
    const launch = signer.issue(session, expiresAt);
    expect(signer.check(launch, session, before, 'launch')).toBe('valid');
    // The scope is in the MAC: a watch token relabelled as a launch token is refused.
    const relabelled = Buffer.from(watch, 'base64url');
    relabelled[0] = 1;
    expect(signer.check(relabelled.toString('base64url'), session, before, 'launch')).toBe('invalid');
  });

  it.each(['', 'x', 'A'.repeat(28), `${'A'.repeat(27)}=`, 'A'.repeat(40)])('should refuse malformed %p', (token) => {
    expect(signer.check(token, session, before)).toBe('invalid');
  });

  it('should refuse a short secret', () => {
    expect(() => new KioskTokenSigner(randomBytes(16))).toThrow(/32 bytes/);
  });
});
