import type { CompletedIdentity } from '../../eid-providers/eid-provider.js';
import type { SessionResult } from '../../tokens/result-token-signer.js';
import type { AgeVerification } from '../session-age.js';
import type { Session } from '../session.entity.js';

/**
 * What a complete session answers and keeps of its completion: the identity, or for an age-only
 * session the age answer alone (docs/age-verification.md).
 */
export type SessionAnswer = Omit<CompletedIdentity, 'evidence'> | { ageVerification: AgeVerification };

/** The members of answers, tokens and webhooks that tell the completion: `user` and `device`, or `ageVerification`. */
export function answerMembers(answer: SessionAnswer | null) {
  if (!answer) return {};
  if ('ageVerification' in answer) return { ageVerification: answer.ageVerification };
  return { user: answer.user, device: answer.device ?? {} };
}

/** An ID card session's verification and its holder's authentication (docs/idcard.md); none in an age-only answer. */
export function idCardOf(answer: SessionAnswer): { idCard: NonNullable<CompletedIdentity['idCard']> } | undefined {
  return 'idCard' in answer && answer.idCard ? { idCard: answer.idCard } : undefined;
}

/** The texts a session sent to its order, base64 as the provider signs them. */
export interface SignedTexts {
  userVisibleData?: string;
  userNonVisibleData?: string;
}

/** Base64 of the UTF-8 text, as the providers send it (docs/evidence.md), so it compares with the signed bytes. */
export function signedTextsOf(request: { userVisibleData?: string; userNonVisibleData?: string }): SignedTexts {
  return {
    ...(request.userVisibleData === undefined ? {} : { userVisibleData: Buffer.from(request.userVisibleData, 'utf8').toString('base64') }),
    ...(request.userNonVisibleData === undefined ? {} : { userNonVisibleData: request.userNonVisibleData }),
  };
}

/** The claims of a final session's result token (docs/evidence.md). */
export function sessionResult(
  session: Session,
  completion: SessionAnswer | null,
  /** Base64 of the provider's signature the token binds (its evidence profile's `sealed`). */
  sealedEvidence: string | undefined,
): SessionResult {
  return {
    teamId: session.teamId,
    sessionId: session.id,
    environment: session.environment,
    provider: session.provider,
    operation: session.operation,
    channel: session.channel,
    status: session.status,
    ...(session.status !== 'complete' && session.hintCode ? { hintCode: session.hintCode } : {}),
    ...answerMembers(completion),
    ...(completion && idCardOf(completion)),
    completedAt: session.completedAt!,
    ...(sealedEvidence ? { signature: sealedEvidence } : {}),
  };
}
