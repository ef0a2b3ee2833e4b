import type { AgeThreshold } from './session-age.js';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import { Clock } from '../common/clock/clock.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { sessionsConfig, type SessionsConfig } from '../config/sessions.config.js';
import { isDatabaseUnavailable } from '../database/database-unavailable.js';
import type { CompletedIdentity, VerifiedIdCard } from '../eid-providers/eid-provider.js';
import { EidProviderRegistry } from '../eid-providers/eid-provider.registry.js';
import { describeProviderError } from './settlement/provider-error.js';
import { SessionMetrics } from './session-metrics.js';
import { SessionReader } from './api/session-reader.js';
import { SessionSettlement } from './settlement/session-settlement.js';
import type { SessionView } from './session-view.js';
import type { Session } from './session.entity.js';
import { SessionStore } from './session.store.js';

/** Who verifies a card: a key of a team's environment, or a counter link (no key) of one (docs/idcard.md). */
export interface IdCardVerifier {
  teamId: string;
  environment: ApiKeyEnvironment;
  apiKeyId: string | null;
}

/** A verified card's session as answered, with what an age check needs beside it (docs/idcard.md). */
export interface IdCardSession {
  view: SessionView;
  /** The holder's date of birth read from the personal number; absent for a coordination number. */
  birthdate?: string;
}

const IDCARD_COUNTER = { operation: 'idcard', channel: 'counter' } as const;

/**
 * Digital ID cards checked at a counter (docs/idcard.md): one verify call to the provider, answered
 * as a session that is finished when it is made. It is stored, signed, logged and announced like any
 * other: written pending, then completed through the settlement, whose transaction verifies the
 * evidence, signs the result token and queues `idcard.session.completed`.
 */
@Injectable()
export class IdCardSessions {
  private readonly logger = new Logger(IdCardSessions.name);

  constructor(
    private readonly store: SessionStore,
    private readonly settlement: SessionSettlement,
    private readonly reader: SessionReader,
    private readonly providers: EidProviderRegistry,
    private readonly clock: Clock,
    private readonly metrics: SessionMetrics,
    @Inject(sessionsConfig.KEY) private readonly config: SessionsConfig,
  ) {}

  async verify(verifier: IdCardVerifier, providerName: string, qrCode: string, ageOver?: AgeThreshold): Promise<IdCardSession> {
    const provider = this.providers.forIdCard(providerName, verifier.environment);
    const verified = await this.callProvider(provider.name, () => provider.idCard.verify(verifier.environment, qrCode));
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.config.sessionTtlMs);
    const session: Session = {
      id: randomUUID(),
      teamId: verifier.teamId,
      apiKeyId: verifier.apiKeyId,
      environment: verifier.environment,
      provider: provider.name,
      ...IDCARD_COUNTER,
      orderRef: verified.verification.verificationId,
      qrStartToken: null,
      qrStartSecretEnc: null,
      orderTime: now,
      launchUrlEnc: null,
      status: 'pending',
      hintCode: null,
      endUserIp: null,
      metadata: null,
      completionEnc: null,
      signedTextsEnc: null,
      evidenceEnc: null,
      resultTokenEnc: null,
      createdAt: now,
      expiresAt,
      completedAt: null,
      // Nothing to collect: the collector never picks it up in the moment before it completes.
      lastCollectedAt: expiresAt,
      piiPurgedAt: null,
      returnNonceHash: null,
      returnNonceFailures: 0,
      returnedAt: null,
      autoRenew: false,
      renewalRequestEnc: null,
      renewals: 0,
      maxRisk: null,
      ageOver: ageOver ?? null,
    };
    await this.store.insert(session);
    this.metrics.sessionStarted(provider.name, 'idcard');
    const completed = await this.settlement.apply(session, { kind: 'complete', completion: completionOf(verified) });
    if (!completed) throw new Error('An ID card session ended before it completed');
    return { view: this.reader.view(completed), ...(verified.birthdate ? { birthdate: verified.birthdate } : {}) };
  }

  private async callProvider<T>(provider: string, call: () => Promise<T>): Promise<T> {
    try {
      return await this.metrics.timeProviderCall(provider, 'idcard', call);
    } catch (error) {
      if (error instanceof DomainException || isDatabaseUnavailable(error)) throw error;
      this.logger.warn({ provider, operation: 'idcard', err: describeProviderError(error) }, 'e-ID provider call failed');
      throw new DomainException('provider_unavailable', `The ${provider} provider did not answer; try again shortly.`);
    }
  }
}

function completionOf({ user, verification, authentication, evidence }: VerifiedIdCard): CompletedIdentity {
  return { user, idCard: { verification, authentication }, evidence };
}
