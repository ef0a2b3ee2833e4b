import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SignJWT } from 'jose';
import { Clock } from '../common/clock/clock.js';
import { tokensConfig, type TokensConfig } from '../config/tokens.config.js';
import { SigningKeysService } from './signing-keys.service.js';

// Explicit typing keeps a result token from passing as an access token and back (RFC 8725 §3.11).
export const RESULT_TOKEN_TYPE = 'eidgw-result+jwt';
export const RESULT_TOKEN_ALGORITHM = 'ES256';

/** The outcome a result token states (docs/evidence.md). */
export interface SessionResult {
  teamId: string;
  sessionId: string;
  environment: string;
  provider: string;
  operation: string;
  channel: string;
  status: string;
  hintCode?: string;
  user?: Record<string, unknown>;
  device?: Record<string, unknown>;
  /** An age-only session's answer in place of user and device (docs/age-verification.md). */
  ageVerification?: Record<string, unknown>;
  /** An ID card session's `verification` and `authentication` (docs/idcard.md). */
  idCard?: { verification: Record<string, unknown>; authentication: Record<string, unknown> };
  completedAt: Date;
  /** completionData.signature (base64), hashed into `evidenceSha256`. */
  signature?: string;
}

/**
 * Signs a session's final outcome as a compact JWS with the service's signing key, so an RP can
 * forward it as proof and anyone verifies it against /.well-known/jwks.json.
 */
@Injectable()
export class ResultTokenSigner {
  constructor(
    private readonly signingKeys: SigningKeysService,
    private readonly clock: Clock,
    @Inject(tokensConfig.KEY) private readonly config: TokensConfig,
  ) {}

  async sign(result: SessionResult): Promise<string> {
    const key = await this.signingKeys.activeKey();
    // The key set is shared with member tokens; their rotation only ever creates ES256 keys.
    if (key.alg !== RESULT_TOKEN_ALGORITHM)
      throw new Error(`Result tokens need an ${RESULT_TOKEN_ALGORITHM} signing key, the active one is ${key.alg}`);
    const claims = {
      environment: result.environment,
      provider: result.provider,
      operation: result.operation,
      channel: result.channel,
      status: result.status,
      ...(result.hintCode === undefined ? {} : { hintCode: result.hintCode }),
      ...(result.user === undefined ? {} : { user: result.user }),
      ...(result.device === undefined ? {} : { device: result.device }),
      ...(result.ageVerification === undefined ? {} : { ageVerification: result.ageVerification }),
      ...(result.idCard === undefined ? {} : result.idCard),
      completedAt: result.completedAt.toISOString(),
      ...(result.signature === undefined ? {} : { evidenceSha256: evidenceSha256(result.signature) }),
    };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: RESULT_TOKEN_TYPE })
      .setIssuer(this.config.issuer)
      .setAudience(result.teamId)
      .setSubject(result.sessionId)
      .setIssuedAt(Math.floor(this.clock.nowMs() / 1000))
      .setJti(randomUUID())
      .sign(key.privateKey);
  }
}

/** Lower-case hex SHA-256 of the signature's decoded bytes: binds the token to the stored evidence. */
export function evidenceSha256(signatureBase64: string): string {
  return createHash('sha256').update(Buffer.from(signatureBase64, 'base64')).digest('hex');
}
