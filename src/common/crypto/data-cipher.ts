import { createCipheriv, createDecipheriv, hkdfSync } from 'node:crypto';
import { pooledRandomBytes } from './random-pool.js';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for data at rest (docs/security.md). The associated data binds a ciphertext to its row and
 * purpose, so a value copied into another row or column fails to decrypt instead of being misread.
 * Layout: version (1) | iv (12) | tag (16) | ciphertext.
 */
export class DataCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The data encryption key must be 32 bytes');
  }

  encrypt(plaintext: string, associatedData: string): Buffer {
    const iv = pooledRandomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(associatedData));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
  }

  decrypt(sealed: Buffer, associatedData: string): string {
    if (sealed[0] !== VERSION) throw new Error('Unknown ciphertext version');
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(associatedData));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  /**
   * A 32-byte key for another purpose (HKDF-SHA256, RFC 5869), so one configured secret serves every
   * replica without a variable per use; distinct `purpose` labels give independent keys.
   */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), `eid-gateway:${purpose}`, 32));
  }

  encryptJson(value: unknown, associatedData: string): Buffer {
    return this.encrypt(JSON.stringify(value), associatedData);
  }

  decryptJson<T>(sealed: Buffer, associatedData: string): T {
    return JSON.parse(this.decrypt(sealed, associatedData)) as T;
  }
}
