import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import type { CompletedIdentity, EvidenceSession } from '../../eid-providers/eid-provider.js';
import { EidProviderRegistry } from '../../eid-providers/eid-provider.registry.js';
import { evidenceView, EvidenceService, type StoredEvidence } from './evidence.service.js';
import { evidenceSha256, ResultTokenSigner } from '../../tokens/result-token-signer.js';
import { ageVerificationOfUser } from '../session-age.js';
import { completionAad, evidenceAad, resultTokenAad, signedTextsAad } from '../session-encryption.js';
import { sessionResult, type SessionAnswer, type SignedTexts } from './session-result.js';
import type { SessionTransition } from '../session-state.js';
import type { SessionOutcome } from '../session-view.js';
import type { Session } from '../session.entity.js';

/** What a transition writes, and for a final one what its webhook tells. */
export interface Finalised {
  changes: Partial<Session>;
  completion: SessionAnswer | null;
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
    const profile = this.providers.evidenceOf(session.provider, session.operation);
    const evidence = await this.evidence.assess(this.evidenceSessionOf(session), profile, provided, {
      personalNumber: completion.user?.personalNumber,
      at: now,
    });
    const changes: Partial<Session> = { status: 'complete', hintCode: null, completedAt: now };
    const sealed = evidence && profile?.sealed(evidence);
    // An age-only session keeps, signs and sends the age answer, and of the evidence its hash and check alone.
    // Elsewhere a wallet's age statements are how its age was known, never part of the identity answered.
    const answer: SessionAnswer = session.ageOver
      ? { ageVerification: ageVerificationOfUser(completion.user, session.ageOver, now, completion.idCard !== undefined) }
      : withoutAgeStatements(completion);
    const kept = evidence && session.ageOver ? ageEvidenceOf(evidence, sealed) : evidence;
    const resultToken = await this.resultTokens.sign(sessionResult({ ...session, ...changes }, answer, sealed));
    return {
      changes: {
        ...changes,
        completionEnc: this.cipher.encryptJson(answer, completionAad(session.id)),
        evidenceEnc: kept ? this.cipher.encryptJson(kept, evidenceAad(session.id)) : null,
        resultTokenEnc: this.cipher.encrypt(resultToken, resultTokenAad(session.id)),
      },
      completion: answer,
      outcome: { ...(kept ? { evidence: evidenceView(kept, profile?.rawMembers ?? []) } : {}), resultToken },
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

function withoutAgeStatements(completion: Omit<CompletedIdentity, 'evidence'>): Omit<CompletedIdentity, 'evidence'> {
  if (!completion.user.ageOver) return completion;
  const user = { ...completion.user };
  delete user.ageOver;
  return { ...completion, user };
}

/**
 * What an age-only session keeps of the evidence (docs/age-verification.md): the SHA-256 of what the
 * result token seals (else of the evidence as the provider gave it) and the service's check, never
 * the body, which names the person.
 */
function ageEvidenceOf(evidence: StoredEvidence, sealed: string | undefined): StoredEvidence {
  const { verification, ...body } = evidence;
  const sha256 = sealed ? evidenceSha256(sealed) : createHash('sha256').update(JSON.stringify(body)).digest('hex');
  return { sha256, ...(verification ? { verification } : {}) };
}
