import { Injectable } from '@nestjs/common';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import type { CompletedIdentity, EvidenceSession } from '../../eid-providers/eid-provider.js';
import { EidProviderRegistry } from '../../eid-providers/eid-provider.registry.js';
import { evidenceView, EvidenceService } from './evidence.service.js';
import { ResultTokenSigner } from '../../tokens/result-token-signer.js';
import { completionAad, evidenceAad, resultTokenAad, signedTextsAad } from '../session-encryption.js';
import { sessionResult, type SignedTexts } from './session-result.js';
import type { SessionTransition } from '../session-state.js';
import type { SessionOutcome } from '../session-view.js';
import type { Session } from '../session.entity.js';

/** What a transition writes, and for a final one what its webhook tells. */
export interface Finalised {
  changes: Partial<Session>;
  completion: CompletedIdentity | null;
  outcome: SessionOutcome;
}

/**
 * The columns a transition writes. A final one is where the evidence is checked and the result
 * signed, once per session (docs/evidence.md): poll answers only read what is stored here.
 */
@Injectable()
export class SessionFinalisation {
  constructor(
    private readonly providers: EidProviderRegistry,
    private readonly cipher: DataCipher,
    private readonly evidence: EvidenceService,
    private readonly resultTokens: ResultTokenSigner,
  ) {}

  async changesOf(session: Session, transition: Exclude<SessionTransition, { kind: 'none' }>, now: Date): Promise<Finalised> {
    if (transition.kind === 'progress') return { changes: { hintCode: transition.hintCode }, completion: null, outcome: {} };
    if (transition.kind === 'fail') {
      const changes: Partial<Session> = { status: 'failed', hintCode: transition.hintCode, completedAt: now };
      const resultToken = await this.resultTokens.sign(sessionResult({ ...session, ...changes }, null, undefined));
      return {
        changes: { ...changes, resultTokenEnc: this.cipher.encrypt(resultToken, resultTokenAad(session.id)) },
        completion: null,
        outcome: { resultToken },
      };
    }
    // The evidence is kept apart from the identity: it has its own route and its own answer once purged.
    const { evidence: provided, ...completion } = transition.completion;
    const profile = this.providers.profileOf(session.provider)?.evidence;
    const evidence = await this.evidence.assess(this.evidenceSessionOf(session), profile, provided, {
      personalNumber: completion.user?.personalNumber,
      at: now,
    });
    const changes: Partial<Session> = { status: 'complete', hintCode: null, completedAt: now };
    const sealed = evidence && profile?.sealed(evidence);
    const resultToken = await this.resultTokens.sign(sessionResult({ ...session, ...changes }, completion, sealed));
    return {
      changes: {
        ...changes,
        completionEnc: this.cipher.encryptJson(completion, completionAad(session.id)),
        evidenceEnc: evidence ? this.cipher.encryptJson(evidence, evidenceAad(session.id)) : null,
        resultTokenEnc: this.cipher.encrypt(resultToken, resultTokenAad(session.id)),
      },
      completion,
      outcome: { ...(evidence ? { evidence: evidenceView(evidence, profile?.rawMembers ?? []) } : {}), resultToken },
    };
  }

  private evidenceSessionOf(session: Session): EvidenceSession {
    const texts: SignedTexts = session.signedTextsEnc ? this.cipher.decryptJson(session.signedTextsEnc, signedTextsAad(session.id)) : {};
    return {
      id: session.id,
      provider: session.provider,
      environment: session.environment,
      operation: session.operation,
      orderRef: session.orderRef,
      ...texts,
    };
  }
}
