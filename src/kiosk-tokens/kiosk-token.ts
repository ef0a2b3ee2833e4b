import { createHmac, timingSafeEqual } from 'node:crypto';

const VERSION = 1;
const MAC_BYTES = 16;
const TOKEN_BYTES = 1 + 4 + MAC_BYTES;
// Domain separation: a MAC made with this key for any other purpose can never pass as a kiosk token.
const PURPOSE = 'eid-gateway kiosk read v1';

export type KioskTokenCheck = 'valid' | 'invalid' | 'expired';

/**
 * The kiosk capability (docs/kiosk.md): version (1 byte) | expiry in Unix seconds (4) | the first 16 bytes
 * of HMAC-SHA256(secret, purpose | session id | expiry), base64url: 28 characters. It names no
 * session (the URL does) and grants one thing, reading that session's QR and status, so it needs no
 * claims; a JWT would add a header, an algorithm choice and twice the length for nothing.
 */
export class KioskTokenSigner {
  constructor(private readonly secret: Buffer) {
    if (secret.length < 32) throw new Error('The kiosk token secret must be at least 32 bytes');
  }

  issue(sessionId: string, expiresAt: Date): string {
    const token = Buffer.alloc(TOKEN_BYTES);
    token[0] = VERSION;
    token.writeUInt32BE(Math.ceil(expiresAt.getTime() / 1000), 1);
    this.mac(sessionId, token.subarray(1, 5)).copy(token, 5);
    return token.toString('base64url');
  }

  check(token: string, sessionId: string, now: Date): KioskTokenCheck {
    const bytes = /^[A-Za-z0-9_-]{28}$/.test(token) ? Buffer.from(token, 'base64url') : null;
    if (!bytes || bytes.length !== TOKEN_BYTES || bytes[0] !== VERSION) return 'invalid';
    if (!timingSafeEqual(bytes.subarray(5), this.mac(sessionId, bytes.subarray(1, 5)))) return 'invalid';
    return bytes.readUInt32BE(1) * 1000 > now.getTime() ? 'valid' : 'expired';
  }

  private mac(sessionId: string, expiry: Buffer): Buffer {
    return createHmac('sha256', this.secret)
      .update(`${PURPOSE}\0${sessionId.toLowerCase()}\0`)
      .update(expiry)
      .digest()
      .subarray(0, MAC_BYTES);
  }
}
