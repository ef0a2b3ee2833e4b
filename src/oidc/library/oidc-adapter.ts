import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import type { Clock } from '../../common/clock/clock.js';
import type { DataCipher } from '../../common/crypto/data-cipher.js';
import { oidcErrors } from './oidc-library.js';
import type { OidcModelStore, StoredModel } from './oidc-model.store.js';

/** Where oidc-provider's clients come from: our oidc_clients table, never the model table. */
export interface ClientSource {
  metadataOf(clientId: string): Promise<AdapterPayload | undefined>;
}

export interface OidcAdapterDeps {
  store: OidcModelStore;
  clients: ClientSource;
  cipher: DataCipher;
  clock: Clock;
}

// The library's own words for a second use of each consumable model.
const CONSUMED_LABELS: Record<string, string> = {
  AuthorizationCode: 'authorization code',
  RefreshToken: 'refresh token',
  BackchannelAuthenticationRequest: 'backchannel authentication request',
  PushedAuthorizationRequest: 'pushed authorization request',
};

const payloadAad = (model: string, id: string) => `oidc_models:${model}:${id}`;

/**
 * oidc-provider's storage (docs/oidc.md, "State"): every model in one PostgreSQL table, its payload
 * encrypted with the data key, so two replicas share every login and a restart loses none. Clients are
 * read from the team's registrations.
 */
export function oidcAdapterFactory(deps: OidcAdapterDeps): AdapterFactory {
  return (model: string): Adapter => (model === 'Client' ? new ClientAdapter(deps.clients) : new ModelAdapter(model, deps));
}

class ModelAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly deps: OidcAdapterDeps,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const now = this.deps.clock.nowMs();
    await this.deps.store.upsert({
      model: this.model,
      id,
      payloadEnc: this.deps.cipher.encryptJson(payload, payloadAad(this.model, id)),
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      userCode: payload.userCode ?? null,
      expiresAt: typeof expiresIn === 'number' ? new Date(now + expiresIn * 1000) : null,
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.open(id, await this.deps.store.find(this.model, id, this.deps.clock.now()));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const found = await this.deps.store.findBy(this.model, 'uid', uid, this.deps.clock.now());
    return found ? this.open(found.id, found.stored) : undefined;
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const found = await this.deps.store.findBy(this.model, 'user_code', userCode, this.deps.clock.now());
    return found ? this.open(found.id, found.stored) : undefined;
  }

  async consume(id: string): Promise<void> {
    if (await this.deps.store.consume(this.model, id, this.deps.clock.now())) return;
    // Another request used it between this one's read and now: the library's rule for a second use
    // applies (RFC 6749 4.1.2: the grant is revoked, the request refused), not a second issue.
    const grantId = await this.deps.store.grantOf(this.model, id);
    if (grantId) await this.deps.store.revokeByGrantId(grantId);
    throw new (oidcErrors().InvalidGrant)(`${CONSUMED_LABELS[this.model] ?? 'grant'} already consumed`);
  }

  async destroy(id: string): Promise<void> {
    await this.deps.store.destroy(this.model, id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.deps.store.revokeByGrantId(grantId);
  }

  private open(id: string, stored: StoredModel | undefined): AdapterPayload | undefined {
    if (!stored) return undefined;
    const payload = this.deps.cipher.decryptJson<AdapterPayload>(stored.payloadEnc, payloadAad(this.model, id));
    // oidc-provider wants `consumed` truthy once used (a code presented twice revokes its grant).
    return stored.consumedAt ? { ...payload, consumed: Math.floor(stored.consumedAt.getTime() / 1000) } : payload;
  }
}

/** Clients are registered through the management API; the provider only reads them. */
class ClientAdapter implements Adapter {
  constructor(private readonly clients: ClientSource) {}

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.clients.metadataOf(id);
  }

  async findByUid(): Promise<undefined> {
    return undefined;
  }

  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  upsert(): Promise<void> {
    return Promise.reject(new Error('OIDC clients are registered through the management API'));
  }

  async consume(): Promise<void> {}

  async destroy(): Promise<void> {}

  async revokeByGrantId(): Promise<void> {}
}
