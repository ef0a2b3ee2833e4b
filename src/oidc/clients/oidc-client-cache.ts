import { Injectable } from '@nestjs/common';
import type { AdapterPayload } from 'oidc-provider';
import { ApiKeyChanges } from '../../api-keys/api-key-changes.js';
import { TtlCache } from '../../common/cache/ttl-cache.js';
import { Clock } from '../../common/clock/clock.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { clientMetadata } from './oidc-client-metadata.js';
import { secretAad } from './oidc-client.js';
import { OidcClientStore } from './oidc-client.store.js';

// Every token and userinfo request looks its client up; the cache saves a statement and a decrypt on
// each. A change reaches every replica's cache through the change feed at once; the TTL bounds a
// change the feed could not carry (the embedded database's CLI) (docs/oidc.md, "Registering a client").
export const CLIENT_CACHE_TTL_MS = 5_000;
const CLIENT_CACHE_MAX = 1_000;

/** oidc-provider's client metadata by client_id, from oidc_clients, cached for a few seconds per process. */
@Injectable()
export class OidcClientCache {
  private readonly cache = new TtlCache<string, AdapterPayload>(CLIENT_CACHE_TTL_MS, CLIENT_CACHE_MAX);

  constructor(
    private readonly store: OidcClientStore,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    private readonly changes: ApiKeyChanges,
  ) {
    changes.onChange((id) => (id === null ? this.cache.clear() : this.cache.delete(id)));
  }

  async metadataOf(clientId: string): Promise<AdapterPayload | undefined> {
    this.changes.listen();
    const now = this.clock.nowMs();
    const cached = this.cache.get(clientId, now);
    if (cached) return cached;
    const generation = this.changes.generation;
    const client = await this.store.findByClientId(clientId);
    // Unknown clients are not cached: a client registered on another replica works at once.
    if (!client) return undefined;
    const metadata = clientMetadata(client, client.secretEnc ? this.cipher.decrypt(client.secretEnc, secretAad(client.id)) : undefined);
    // A change heard while the read was under way may postdate it: such a read is not cached (as API keys).
    if (this.changes.live && this.changes.generation === generation) this.cache.set(clientId, metadata, now);
    return metadata;
  }

  /** After a committed change of the client: this process forgets it at once, every other on the feed. */
  async changed(clientId: string): Promise<void> {
    this.cache.delete(clientId);
    await this.changes.publish(clientId);
  }
}
