import { Injectable } from '@nestjs/common';
import { DataCipher } from '../common/crypto/data-cipher.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { isUuid } from '../common/validation/is-uuid.js';
import type { QrSource } from '../qr/qr-frame.js';
import { launchUrlAad } from './session-encryption.js';
import { SessionQrSources } from './session-qr-sources.js';
import type { Session } from './session.entity.js';
import { SessionStore, type SessionProgress } from './session.store.js';

/** What a screen that shows a session (the kiosk) may know of it: its QR and progress, never the identity. */
export interface SessionScreenState {
  id: string;
  /** Whose words the screen uses (docs/kiosk.md). */
  provider: string;
  status: Session['status'];
  hintCode: string | null;
  orderTime: Date;
  /** Orders replaced so far (autoRenew): a change means new frames and a new launch link. */
  renewals: number;
  /** Present while the session is pending and has a QR. */
  qr?: QrSource;
}

/**
 * The read model of sessions for screens (the kiosk, docs/kiosk.md): by id alone, since the screen's
 * capability token already names the session. The kiosk reads sessions through this, never the store.
 */
@Injectable()
export class SessionScreenReader {
  constructor(
    private readonly sessions: SessionStore,
    private readonly qrSources: SessionQrSources,
    private readonly cipher: DataCipher,
  ) {}

  async forScreen(sessionId: string): Promise<SessionScreenState> {
    const session = isUuid(sessionId) ? await this.sessions.findById(sessionId) : null;
    if (!session) throw new DomainException('session_not_found', 'No such session.');
    const { id, provider, status, hintCode, orderTime, renewals } = session;
    const qr = status === 'pending' ? this.qrSources.of(session) : null;
    return { id, provider, status, hintCode, orderTime, renewals, ...(qr ? { qr } : {}) };
  }

  /** The current order's same-device link while the session is pending (docs/same-device.md). */
  async launchUrl(sessionId: string): Promise<string | null> {
    const session = isUuid(sessionId) ? await this.sessions.findById(sessionId) : null;
    if (!session) throw new DomainException('session_not_found', 'No such session.');
    return session.status === 'pending' && session.launchUrlEnc
      ? this.cipher.decrypt(session.launchUrlEnc, launchUrlAad(session.id))
      : null;
  }

  /**
   * Of the sessions a kiosk process watches, those whose status or hint is no longer what it last
   * saw: one query a second for all of them, however many.
   */
  changes(known: Omit<SessionProgress, 'status'>[]): Promise<SessionProgress[]> {
    return this.sessions.changedSince(known);
  }
}
