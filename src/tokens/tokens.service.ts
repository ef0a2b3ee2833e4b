import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { errors, jwtVerify, SignJWT } from 'jose';
import { Clock } from '../common/clock/clock.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { tokensConfig, type TokensConfig } from '../config/tokens.config.js';
import { SIGNING_ALGORITHMS } from './signing-key.entity.js';
import { SigningKeysService } from './signing-keys.service.js';

// RFC 9068 access-token type: explicit typing keeps another kind of JWT from passing as ours (RFC 8725 §3.11).
export const TOKEN_TYPE = 'at+jwt';

export interface TokenSubject {
  userId: string;
  teamId: string;
  /** The API key (an approved application) the user logged in through. */
  clientId: string;
}

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

export interface VerifiedToken {
  userId: string;
  teamId: string;
  /** The token's `jti`, by which it is revoked (docs/otp-and-tokens.md, "Revocation"). */
  tokenId: string;
  expiresAt: Date;
}

/** Team-member access tokens: asymmetric JWTs any service can verify from the JWKS alone. */
@Injectable()
export class TokensService {
  constructor(
    private readonly signingKeys: SigningKeysService,
    private readonly clock: Clock,
    @Inject(tokensConfig.KEY) private readonly config: TokensConfig,
  ) {}

  async issue(subject: TokenSubject): Promise<IssuedToken> {
    const key = await this.signingKeys.activeKey();
    const issuedAt = Math.floor(this.clock.nowMs() / 1000);
    const expiresAt = issuedAt + Math.ceil(this.config.ttlMs / 1000);
    const token = await new SignJWT({ team: subject.teamId, client_id: subject.clientId })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: TOKEN_TYPE })
      .setIssuer(this.config.issuer)
      .setAudience(this.config.audience)
      .setSubject(subject.userId)
      .setJti(randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(key.privateKey);
    return { token, expiresAt: new Date(expiresAt * 1000) };
  }

  /** The subject of a valid token of ours, else 401 invalid_token. */
  async verify(token: string): Promise<VerifiedToken> {
    try {
      const { payload } = await jwtVerify(token, this.signingKeys.verificationKey, {
        algorithms: [...SIGNING_ALGORITHMS],
        issuer: this.config.issuer,
        audience: this.config.audience,
        typ: TOKEN_TYPE,
        requiredClaims: ['sub', 'team', 'iat', 'exp', 'jti'],
        currentDate: this.clock.now(),
        clockTolerance: this.config.clockSkewMs / 1000,
      });
      const { sub, team, jti, exp } = payload;
      if (!isUUID(sub) || !isUUID(team) || !isUUID(jti))
        throw new errors.JWTClaimValidationFailed('sub, team and jti must be GUIDs', payload);
      return { userId: sub as string, teamId: team as string, tokenId: jti as string, expiresAt: new Date((exp as number) * 1000) };
    } catch (error) {
      // Claims are checked after the signature: an expired token is one of ours, not a guess (docs/protection.md).
      if (error instanceof errors.JWTExpired) throw new DomainException('invalid_token', 'The bearer token has expired; log in again.');
      // Anything else (the database behind the key set is down) is ours, not the caller's: a 500.
      if (error instanceof errors.JOSEError)
        throw new DomainException('invalid_token', 'The bearer token is not valid.', { failedAttempt: true });
      throw error;
    }
  }
}
