import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { Environment } from './environment.js';
import { EidGatewayError } from './errors.js';
import type { SessionState } from './types.js';

/** The claims of a result token (docs/evidence.md): the outcome of one session, signed by the service. */
export interface ResultClaims extends JWTPayload {
  environment: Environment;
  provider: string;
  operation: SessionState['operation'];
  channel: SessionState['channel'];
  status: 'complete' | 'failed';
  hintCode?: string;
  user?: Record<string, unknown>;
  device?: Record<string, unknown>;
  completedAt: string;
  evidenceSha256?: string;
}

export interface VerifyResultTokenOptions {
  /** The team id the token must be addressed to (`aud`); checked when given. */
  audience?: string;
}

/**
 * Verifies result tokens against the service's JWKS, fetched once and cached by jose (refetched when a
 * token names an unknown `kid`, at most every 30 s): ES256 only, `typ` eidgw-result+jwt (so no other
 * token of the service passes as one), the issuer, and the client's environment, so a test outcome never
 * passes in a live client.
 */
export class ResultTokenVerifier {
  readonly #jwks: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    jwksUrl: URL,
    private readonly issuer: string,
    private readonly environment: Environment,
    options: { timeoutMs: number; userAgent: string },
  ) {
    this.#jwks = createRemoteJWKSet(jwksUrl, { timeoutDuration: options.timeoutMs, headers: { 'user-agent': options.userAgent } });
  }

  async verify(token: string, options: VerifyResultTokenOptions = {}): Promise<ResultClaims> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.#jwks, {
        algorithms: ['ES256'],
        typ: 'eidgw-result+jwt',
        issuer: this.issuer,
        audience: options.audience,
        requiredClaims: ['sub', 'iat', 'environment', 'status'],
      }));
    } catch (error) {
      throw new EidGatewayError(`The result token did not verify: ${(error as Error).message}`, {
        code: 'invalid_result_token',
        cause: error,
      });
    }
    if (payload.environment !== this.environment) {
      throw new EidGatewayError(`The result token is of the ${String(payload.environment)} environment, not ${this.environment}`, {
        code: 'invalid_result_token',
      });
    }
    return payload as ResultClaims;
  }
}
