import { Injectable } from '@nestjs/common';
import { DataCipher } from '../common/crypto/data-cipher.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { isUuid } from '../common/validation/is-uuid.js';
import type { StoredEvidence } from '../sessions/settlement/evidence.service.js';
import { evidenceAad } from '../sessions/session-encryption.js';
import { SessionTimelineStore, type TimelineSessionRow } from './session-timeline.store.js';

/**
 * A session's timeline for the console (docs/console.md, "A session's timeline"): its status and
 * hint code changes, its webhook messages with their attempts, whether its evidence checked out and
 * the OpenID client that started it. Never the person: no identity, IP address, metadata or payload.
 */
@Injectable()
export class SessionTimelineService {
  constructor(
    private readonly store: SessionTimelineStore,
    private readonly cipher: DataCipher,
  ) {}

  async forTeam(teamId: string, id: string) {
    // Another team's session answers like a missing one.
    const session = isUuid(id) ? await this.store.session(teamId, id) : null;
    if (!session) throw new DomainException('session_not_found', `No session ${id}.`);
    const [events, deliveries] = await Promise.all([this.store.events(session.id), this.store.deliveries(teamId, session.id)]);
    const attempts = await this.store.attempts(deliveries.map((delivery) => delivery.id));
    return {
      session: {
        sessionId: session.id,
        provider: session.provider,
        environment: session.environment,
        operation: session.operation,
        channel: session.channel,
        status: session.status,
        hintCode: session.hintCode,
        createdAt: session.createdAt,
        expiresAt: session.expiresAt,
        completedAt: session.completedAt,
        renewals: session.renewals,
      },
      // The start is the first change; the settlement wrote the rest as they happened.
      events: [
        { at: session.createdAt, status: 'pending', hintCode: 'outstandingTransaction' },
        ...events.map((event) => ({ at: event.occurredAt, status: event.status, hintCode: event.hintCode })),
      ],
      webhooks: deliveries.map((delivery) => ({
        id: delivery.id,
        messageId: delivery.messageId,
        eventType: delivery.eventType,
        status: delivery.status,
        url: delivery.url,
        createdAt: delivery.createdAt,
        deliveredAt: delivery.deliveredAt,
        attempts: attempts
          .filter((attempt) => attempt.deliveryId === delivery.id)
          .map((attempt) => ({
            number: attempt.attemptNumber,
            attemptedAt: attempt.attemptedAt,
            trigger: attempt.trigger,
            outcome: attempt.outcome,
            statusCode: attempt.statusCode,
            latencyMs: attempt.latencyMs,
            error: attempt.error,
          })),
      })),
      evidence: this.evidenceOf(session),
      oidcClientId: session.oidcClientId,
    };
  }

  /** Only the verdict and its parts, never the signature, certificates or the signed data. */
  private evidenceOf(session: TimelineSessionRow) {
    if (session.evidenceEnc) {
      const stored = this.cipher.decryptJson<StoredEvidence>(session.evidenceEnc, evidenceAad(session.id));
      return stored.verification ? { state: 'checked' as const, verification: stored.verification } : { state: 'none' as const };
    }
    return { state: session.piiPurgedAt ? ('purged' as const) : ('none' as const) };
  }
}
