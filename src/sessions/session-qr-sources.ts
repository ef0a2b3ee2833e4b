import { Injectable } from '@nestjs/common';
import { DataCipher } from '../common/crypto/data-cipher.js';
import { EidProviderRegistry } from '../eid-providers/eid-provider.registry.js';
import type { QrSource } from '../qr/qr-frame.js';
import { qrSecretAad } from './session-encryption.js';
import type { Session } from './session.entity.js';

/**
 * What a session's QR is made from, for the QR routes and the kiosk alike: its decrypted secret
 * (an animated code), or the static content its provider gives for the order. Null: no QR.
 */
@Injectable()
export class SessionQrSources {
  constructor(
    private readonly providers: EidProviderRegistry,
    private readonly cipher: DataCipher,
  ) {}

  of(session: Pick<Session, 'id' | 'provider' | 'orderRef' | 'qrStartToken' | 'qrStartSecretEnc'>): QrSource | null {
    const qr = this.providers.profileOf(session.provider)?.qr;
    if (qr?.kind === 'animated' && session.qrStartToken && session.qrStartSecretEnc) {
      const secret = {
        startToken: session.qrStartToken,
        startSecret: this.cipher.decrypt(session.qrStartSecretEnc, qrSecretAad(session.id)),
      };
      return { kind: 'animated', frameAt: (qrTime) => qr.frame(secret, qrTime) };
    }
    return qr?.kind === 'static' ? { kind: 'static', qrData: qr.data(session.orderRef) } : null;
  }
}
