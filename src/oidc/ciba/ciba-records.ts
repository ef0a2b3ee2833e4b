import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { OidcModelStore } from '../library/oidc-model.store.js';
import type { CibaMethod } from './ciba-request.js';

/** What a backchannel request started: its e-ID session and how it was asked for. */
export interface CibaLink extends CibaMethod {
  authReqId: string;
  sessionId: string;
  clientId: string;
  /** When the request expires (ms): after it the token endpoint says expired_token. */
  expiresAt: number;
  /** The client's last token request for it (ms), for slow_down. */
  lastPolledAt: number | null;
}

// Beside oidc-provider's models in the same table, under names the library never uses.
const BY_REQUEST = 'EidgwCibaRequest';
const BY_SESSION = 'EidgwCibaSession';
const SETTLING = 'EidgwCibaSettling';
// Far longer than a settlement takes; after it a replica that died mid-way is taken over.
const SETTLING_LEASE_MS = 30_000;
// Kept past the request's expiry so a late poll is told expired_token, not that the request is unknown.
const GRACE_MS = 10 * 60_000;
const aad = (model: string, id: string) => `oidc_models:${model}:${id}`;

/** The links between backchannel requests and sessions (docs/oidc.md, "CIBA"), encrypted like the provider's models. */
@Injectable()
export class CibaRecords {
  constructor(
    private readonly store: OidcModelStore,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
  ) {}

  async save(link: CibaLink): Promise<void> {
    await this.put(BY_REQUEST, link.authReqId, link, link.expiresAt);
    await this.put(BY_SESSION, link.sessionId, { authReqId: link.authReqId }, link.expiresAt);
  }

  find(authReqId: string): Promise<CibaLink | undefined> {
    return this.get<CibaLink>(BY_REQUEST, authReqId);
  }

  async findBySession(sessionId: string): Promise<CibaLink | undefined> {
    const ref = await this.get<{ authReqId: string }>(BY_SESSION, sessionId);
    return ref ? this.find(ref.authReqId) : undefined;
  }

  /** True for the one replica that may settle the request now (docs/oidc.md, "CIBA"). */
  claimSettlement(authReqId: string): Promise<boolean> {
    const now = this.clock.now();
    return this.store.takeLease(SETTLING, authReqId, new Date(now.getTime() + SETTLING_LEASE_MS), now);
  }

  polled(link: CibaLink, at: number): Promise<void> {
    return this.put(BY_REQUEST, link.authReqId, { ...link, lastPolledAt: at }, link.expiresAt);
  }

  private async put(model: string, id: string, value: unknown, expiresAt: number): Promise<void> {
    await this.store.upsert({
      model,
      id,
      payloadEnc: this.cipher.encryptJson(value, aad(model, id)),
      grantId: null,
      uid: null,
      userCode: null,
      expiresAt: new Date(expiresAt + GRACE_MS),
    });
  }

  private async get<T>(model: string, id: string): Promise<T | undefined> {
    const stored = await this.store.find(model, id, this.clock.now());
    return stored ? this.cipher.decryptJson<T>(stored.payloadEnc, aad(model, id)) : undefined;
  }
}
