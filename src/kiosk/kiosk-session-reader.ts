import { Injectable } from '@nestjs/common';
import { DataCipher } from '../common/crypto/data-cipher.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { isUuid } from '../common/validation/is-uuid.js';
import { qrSecretAad } from '../sessions/session-encryption.js';
import type { Session } from '../sessions/session.entity.js';
import { SessionStore, type SessionProgress } from '../sessions/session.store.js';

/** What a kiosk screen may know of a session: its QR and progress, never the identity. */
export interface KioskSessionState {
  id: string;
  status: Session['status'];
  hintCode: string | null;
  orderTime: Date;
  /** Present while the session is pending and has an animated QR. */
  qr?: { startToken: string; startSecret: string };
}

/** The kiosk's read model of sessions: by id alone, since the kiosk's token already names the session. */
@Injectable()
export class KioskSessionReader {
  constructor(
    private readonly sessions: SessionStore,
    private readonly cipher: DataCipher,
  ) {}

  async forKiosk(sessionId: string): Promise<KioskSessionState> {
    const session = isUuid(sessionId) ? await this.sessions.findById(sessionId) : null;
    if (!session) throw new DomainException('session_not_found', 'No such session.');
    const { id, status, hintCode, orderTime, qrStartToken, qrStartSecretEnc } = session;
    const showsQr = status === 'pending' && qrStartToken && qrStartSecretEnc;
    return {
      id,
      status,
      hintCode,
      orderTime,
      ...(showsQr ? { qr: { startToken: qrStartToken, startSecret: this.cipher.decrypt(qrStartSecretEnc, qrSecretAad(id)) } } : {}),
    };
  }

  /**
   * Of the sessions a kiosk process watches, those whose status or hint is no longer what it last
   * saw: one query a second for all of them, however many.
   */
  changes(known: { id: string; hintCode: string | null }[]): Promise<SessionProgress[]> {
    return this.sessions.changedSince(known);
  }
}
