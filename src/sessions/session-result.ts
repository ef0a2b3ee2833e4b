import type { CompletedIdentity } from '../eid-providers/eid-provider.js';
import type { StoredEvidence } from '../evidence/evidence.service.js';
import type { SessionResult } from '../evidence/result-token-signer.js';
import type { Session } from './session.entity.js';

/** The texts a session sent to its order, base64 as the provider signs them. */
export interface SignedTexts {
  userVisibleData?: string;
  userNonVisibleData?: string;
}

/** Encoded as the BankID client encodes userVisibleData (docs/bankid.md), so it compares with the signed bytes. */
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
  evidence: StoredEvidence | undefined,
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
    ...(evidence?.signature ? { signature: evidence.signature } : {}),
  };
}
