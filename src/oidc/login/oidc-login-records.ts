import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import type { OidcAccount } from '../library/oidc-claims.js';
import type { EidOperation } from '../../eid-providers/eid-provider.js';
import type { DeviceChoice } from '../oidc-acr.js';
import { OidcModelStore } from '../library/oidc-model.store.js';
import type { AgeThreshold } from '../../sessions/session-age.js';

/** The e-ID session a login page started, by interaction uid: a reload or the app's return finds it again. */
export interface InteractionLogin {
  sessionId: string;
  acr: string;
  provider: string;
  device: DeviceChoice;
  kioskToken: string | null;
  /** `sign` for a signature over OIDC (docs/oidc.md, "Signing"); absent on records written before it. */
  operation?: EidOperation;
  /**
   * Where the person chose to open the e-ID, for a provider whose app link is bound to this browser
   * (docs/oidc.md, "Same device"): on `this` device the login finishes only in the browser the app
   * sends back with the session's nonce. Absent for other providers and on records written before it.
   */
  chosen?: LoginDevice;
  /** That browser came back with the nonce. */
  returned?: boolean;
  /** An age login (docs/age-verification.md): the id token's acr is the age acr, whichever e-ID answered. */
  ageOver?: AgeThreshold;
}

/** Where the person opens the e-ID: `this` device (the app link, then its return), an `other` (the QR). */
export type LoginDevice = 'this' | 'other';

/** What one login proved, as its grant carries it: the login's claims and the client's plain personal number name. */
export type StoredAccount = OidcAccount & {
  acr: string;
  personalNumberClaim: string | null;
};

// Our own records beside oidc-provider's models, in the same table under names the library never uses.
const LOGIN = 'EidgwInteractionLogin';
const PICK = 'EidgwInteractionPick';
// Where grants written before the account moved into the grant find it (docs/oidc.md, "State"); none is
// written any more, and the last expires 14 days after the release that moved it.
const LEGACY_ACCOUNT = 'EidgwAccount';
const aad = (model: string, id: string) => `oidc_models:${model}:${id}`;

/** What our login interaction keeps between requests (docs/oidc.md, "State"), encrypted like the provider's models. */
@Injectable()
export class OidcLoginRecords {
  constructor(
    private readonly store: OidcModelStore,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
  ) {}

  saveLogin(uid: string, login: InteractionLogin, ttlSeconds: number): Promise<void> {
    return this.put(LOGIN, uid, login, ttlSeconds);
  }

  findLogin(uid: string): Promise<InteractionLogin | undefined> {
    return this.get(LOGIN, uid);
  }

  /** The e-ID the person picked on the chooser (docs/oidc.md, "The chooser"), by its acr. */
  savePick(uid: string, acr: string, ttlSeconds: number): Promise<void> {
    return this.put(PICK, uid, { acr }, ttlSeconds);
  }

  async findPick(uid: string): Promise<string | undefined> {
    return (await this.get<{ acr: string }>(PICK, uid))?.acr;
  }

  /** The account of a grant written before grants carried it (filed under its grant, so revoking the grant erased it). */
  findLegacyAccount(grantId: string): Promise<StoredAccount | undefined> {
    return this.get(LEGACY_ACCOUNT, grantId);
  }

  private async put(model: string, id: string, value: unknown, ttlSeconds: number): Promise<void> {
    await this.store.upsert({
      model,
      id,
      payloadEnc: this.cipher.encryptJson(value, aad(model, id)),
      grantId: null,
      uid: null,
      userCode: null,
      expiresAt: new Date(this.clock.nowMs() + ttlSeconds * 1000),
    });
  }

  private async get<T>(model: string, id: string): Promise<T | undefined> {
    const stored = await this.store.find(model, id, this.clock.now());
    return stored ? this.cipher.decryptJson<T>(stored.payloadEnc, aad(model, id)) : undefined;
  }
}
