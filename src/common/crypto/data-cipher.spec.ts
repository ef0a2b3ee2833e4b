import { randomBytes } from 'node:crypto';
import { DataCipher } from './data-cipher.js';

describe(DataCipher.name, () => {
  const cipher = new DataCipher(randomBytes(32));

  it('should round-trip text and JSON', () => {
    expect(cipher.decrypt(cipher.encrypt('hemlig', 'row-1'), 'row-1')).toBe('hemlig');
    const user = { personalNumber: '199001011239', name: 'Åsa Öberg' };
    expect(cipher.decryptJson(cipher.encryptJson(user, 'row-1:user'), 'row-1:user')).toEqual(user);
  });

  it('should not contain the plaintext and should differ every time (random IV)', () => {
    const a = cipher.encrypt('199001011239', 'x');
    const b = cipher.encrypt('199001011239', 'x');
    expect(a.equals(b)).toBe(false);
    expect(a.toString('latin1')).not.toContain('199001011239');
  });

  it('should refuse a ciphertext moved to another row (associated data)', () => {
    const sealed = cipher.encrypt('secret', 'session-a:qr');
    expect(() => cipher.decrypt(sealed, 'session-b:qr')).toThrow();
  });

  it('should refuse a tampered ciphertext', () => {
    const sealed = cipher.encrypt('secret', 'a');
    sealed[sealed.length - 1] ^= 1;
    expect(() => cipher.decrypt(sealed, 'a')).toThrow();
  });

  it('should refuse another key', () => {
    const sealed = cipher.encrypt('secret', 'a');
    expect(() => new DataCipher(randomBytes(32)).decrypt(sealed, 'a')).toThrow();
  });

  it('should derive stable, independent 32-byte keys per purpose', () => {
    const key = randomBytes(32);
    const derived = new DataCipher(key).deriveKey('otp');
    expect(derived).toHaveLength(32);
    expect(new DataCipher(key).deriveKey('otp').equals(derived)).toBe(true);
    expect(new DataCipher(key).deriveKey('other').equals(derived)).toBe(false);
    expect(derived.equals(key)).toBe(false);
  });

  it('should refuse a key that is not 32 bytes', () => {
    expect(() => new DataCipher(randomBytes(16))).toThrow(/32 bytes/);
  });
});
