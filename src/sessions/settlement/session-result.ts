import type { CompletedIdentity } from '../../eid-providers/eid-provider.js';
import type { SessionResult } from '../../tokens/result-token-signer.js';
import type { Session } from '../session.entity.js';

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
  completion: Omit<CompletedIdentity, 'evidence'> | null,
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
    ...(completion ? { user: completion.user, device: completion.device ?? {} } : {}),
    completedAt: session.completedAt!,
    ...(sealedEvidence ? { signature: sealedEvidence } : {}),
  };
}
