import { createHmac, timingSafeEqual } from 'node:crypto';

const MAC_BYTES = 16;
const TOKEN_BYTES = 1 + 4 + MAC_BYTES;

/**
 * What a token grants: `launch` the QR, the status and the app link on the same device (every kiosk
 * link); `watch` the QR and the status only, for a page whose login must not open an app elsewhere
 * (docs/oidc.md, "The login page").
 */
export type KioskScope = 'launch' | 'watch';

// The version byte names the scope; domain separation: a MAC made with this key for any other purpose
// or scope can never pass as a kiosk token of this one.
const SCOPES: Record<number, { scope: KioskScope; purpose: string }> = {
  1: { scope: 'launch', purpose: 'eid-gateway kiosk read v1' },
  2: { scope: 'watch', purpose: 'eid-gateway kiosk watch v1' },
};
const VERSION: Record<KioskScope, number> = { launch: 1, watch: 2 };

export type KioskTokenCheck = 'valid' | 'invalid' | 'expired';

/**
 * The kiosk capability (docs/kiosk.md): version (1 byte, naming the scope) | expiry in Unix seconds (4) |
 * the first 16 bytes of HMAC-SHA256(secret, purpose | session id | expiry), base64url: 28 characters.
 * It names no session (the URL does) and grants one thing, reading that session's screen, so it needs
 * no claims; a JWT would add a header, an algorithm choice and twice the length for nothing.
 */
export class KioskTokenSigner {
  constructor(private readonly secret: Buffer) {
    if (secret.length < 32) throw new Error('The kiosk token secret must be at least 32 bytes');
  }

  issue(sessionId: string, expiresAt: Date, scope: KioskScope = 'launch'): string {
    const token = Buffer.alloc(TOKEN_BYTES);
    token[0] = VERSION[scope];
    token.writeUInt32BE(Math.ceil(expiresAt.getTime() / 1000), 1);
    this.mac(SCOPES[token[0]].purpose, sessionId, token.subarray(1, 5)).copy(token, 5);
    return token.toString('base64url');
  }

  /** Valid when the token is of this session, unexpired, and its scope grants `need` (`launch` grants both). */
  check(token: string, sessionId: string, now: Date, need: KioskScope = 'watch'): KioskTokenCheck {
    const bytes = /^[A-Za-z0-9_-]{28}$/.test(token) ? Buffer.from(token, 'base64url') : null;
    const version = bytes?.length === TOKEN_BYTES && Object.hasOwn(SCOPES, bytes[0]) ? SCOPES[bytes[0]] : undefined;
    if (!bytes || !version) return 'invalid';
    if (!timingSafeEqual(bytes.subarray(5), this.mac(version.purpose, sessionId, bytes.subarray(1, 5)))) return 'invalid';
    if (need === 'launch' && version.scope !== 'launch') return 'invalid';
    return bytes.readUInt32BE(1) * 1000 > now.getTime() ? 'valid' : 'expired';
  }

  private mac(purpose: string, sessionId: string, expiry: Buffer): Buffer {
    return createHmac('sha256', this.secret)
      .update(`${purpose}\0${sessionId.toLowerCase()}\0`)
      .update(expiry)
      .digest()
      .subarray(0, MAC_BYTES);
  }
}
