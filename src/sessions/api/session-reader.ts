import { Injectable } from '@nestjs/common';
import type { ApiKeyPrincipal, Principal } from '../../auth/principal.js';
import { Clock } from '../../common/clock/clock.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { isUuid } from '../../common/validation/is-uuid.js';
import { EidProviderRegistry } from '../../eid-providers/eid-provider.registry.js';
import { evidenceView, type StoredEvidence } from '../settlement/evidence.service.js';
import type { QrSource } from '../../qr/qr-frame.js';
import { completionAad, evidenceAad, resultTokenAad } from '../session-encryption.js';
import { SessionQrSources } from '../session-qr-sources.js';
import { sessionView, type SessionView } from '../session-view.js';
import type { Session } from '../session.entity.js';
import { SessionStore } from '../session.store.js';
import type { SessionAnswer } from '../settlement/session-result.js';

/** A key's sessions as the API shows them: found by team and environment, decrypted for the answer. */
@Injectable()
export class SessionReader {
  constructor(
    private readonly store: SessionStore,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    private readonly qrSources: SessionQrSources,
    private readonly providers: EidProviderRegistry,
  ) {}

  async findForKey(principal: ApiKeyPrincipal, sessionId: string): Promise<Session> {
    // Another team's or the other environment's session answers exactly like a missing one: no
    // enumeration, and a test key never reads a live identity nor a live key a simulated one (docs/security.md).
    const session = isUuid(sessionId) ? await this.store.findForKey(sessionId, principal.team.id, principal.apiKey.environment) : null;
    if (!session) throw new DomainException('session_not_found', 'No such session.');
    return session;
  }

  /** A key's session as findForKey finds it; a team member's in either environment of the team. */
  async findForPrincipal(principal: Principal, sessionId: string): Promise<Session> {
    if (principal.kind === 'apiKey') return this.findForKey(principal, sessionId);
    const session = isUuid(sessionId) ? await this.store.findForTeam(sessionId, principal.team.id) : null;
    if (!session) throw new DomainException('session_not_found', 'No such session.');
    return session;
  }

  /** The stored result token and raw evidence of a final session, decrypted; null for a member purged or never written. */
  proofOf(session: Session): { resultToken: string | null; evidence: StoredEvidence | null } {
    return {
      resultToken: session.resultTokenEnc ? this.cipher.decrypt(session.resultTokenEnc, resultTokenAad(session.id)) : null,
      evidence: session.evidenceEnc ? this.cipher.decryptJson<StoredEvidence>(session.evidenceEnc, evidenceAad(session.id)) : null,
    };
  }

  view(session: Session): SessionView {
    const messages = this.providers.profileOf(session.provider)?.messages;
    // A pending session holds no personal data yet: nothing to decrypt (the hot poll).
    if (session.status === 'pending') return sessionView(session, null, {}, messages);
    const completion =
      session.status === 'complete' && session.completionEnc
        ? this.cipher.decryptJson<SessionAnswer>(session.completionEnc, completionAad(session.id))
        : null;
    const evidence = session.evidenceEnc
      ? this.cipher.decryptJson<StoredEvidence>(session.evidenceEnc, evidenceAad(session.id))
      : undefined;
    return sessionView(
      session,
      completion,
      {
        ...(evidence
          ? { evidence: evidenceView(evidence, this.providers.evidenceOf(session.provider, session.operation)?.rawMembers ?? []) }
          : {}),
        ...(session.resultTokenEnc ? { resultToken: this.cipher.decrypt(session.resultTokenEnc, resultTokenAad(session.id)) } : {}),
      },
      messages,
    );
  }

  /** The raw evidence of a complete session (docs/evidence.md): 410 once purged with the personal data. */
  async evidence(principal: ApiKeyPrincipal, sessionId: string): Promise<StoredEvidence & { sessionId: string }> {
    const session = await this.findForKey(principal, sessionId);
    if (session.piiPurgedAt) throw new DomainException('evidence_purged', 'The evidence was erased with the personal data of the session.');
    if (!session.evidenceEnc)
      throw new DomainException('evidence_not_found', 'The session has no evidence: it did not complete, or its provider gave none.');
    return { sessionId: session.id, ...this.cipher.decryptJson<StoredEvidence>(session.evidenceEnc, evidenceAad(session.id)) };
  }

  /** A pending session of the caller's team and environment, with what its QR is made from. */
  async pendingForQr(principal: ApiKeyPrincipal, sessionId: string): Promise<{ session: Session; qr: QrSource }> {
    const session = await this.findForKey(principal, sessionId);
    // A phone session never had a QR: the user is on a call, and the order is in their app already.
    if (session.channel === 'phone') throw new DomainException('qr_not_available', 'A phone session has no QR code.');
    const qr = session.status === 'pending' && this.clock.now() < session.expiresAt ? this.qrSources.of(session) : null;
    if (!qr) throw new DomainException('session_not_pending', 'The session is no longer waiting for a scan.');
    return { session, qr };
  }
}
