import { Injectable } from '@nestjs/common';
import type { AdapterPayload } from 'oidc-provider';
import { ApiKeyChanges } from '../../api-keys/api-key-changes.js';
import { TtlCache } from '../../common/cache/ttl-cache.js';
import { Clock } from '../../common/clock/clock.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import type { Team } from '../../teams/team.entity.js';
import { TeamsService } from '../../teams/teams.service.js';
import { clientMetadata } from './oidc-client-metadata.js';
import { secretAad } from './oidc-client.js';
import { OidcClientStore } from './oidc-client.store.js';

// Every token and userinfo request looks its client up and checks its team; the cache saves two
// statements and a decrypt on each. A change of the client reaches every replica's cache through the
// change feed at once; the TTL bounds a change the feed does not carry: the embedded database's CLI,
// and a team's plan or subscription (docs/oidc.md, "Registering a client" and "Plans").
export const CLIENT_CACHE_TTL_MS = 5_000;
const CLIENT_CACHE_MAX = 1_000;

/** A client's metadata for the library and, once a request has checked it, the client's team. */
interface CachedClient {
  metadata: AdapterPayload;
  team?: Team;
}

/** oidc-provider's client metadata by client_id, from oidc_clients, and its team, cached for a few seconds per process. */
@Injectable()
export class OidcClientCache {
  private readonly cache = new TtlCache<string, CachedClient>(CLIENT_CACHE_TTL_MS, CLIENT_CACHE_MAX);

  constructor(
    private readonly store: OidcClientStore,
    private readonly teams: TeamsService,
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
    if (cached) return cached.metadata;
    const generation = this.changes.generation;
    const client = await this.store.findByClientId(clientId);
    // Unknown clients are not cached: a client registered on another replica works at once.
    if (!client) return undefined;
    const metadata = clientMetadata(client, client.secretEnc ? this.cipher.decrypt(client.secretEnc, secretAad(client.id)) : undefined);
    // A change heard while the read was under way may postdate it: such a read is not cached (as API keys).
    if (this.changes.live && this.changes.generation === generation) this.cache.set(clientId, { metadata }, now);
    return metadata;
  }

  /**
   * The client's team, read at most 5 s ago while the client is cached: kept with the client's entry,
   * so it is read again when the entry is (docs/oidc.md, "Plans"). Read by the team's id, which the
   * caller has from the client itself.
   */
  async teamOf(clientId: string, teamId: string): Promise<Team> {
    const cached = this.cache.get(clientId, this.clock.nowMs());
    if (cached?.team?.id === teamId) return cached.team;
    const team = await this.teams.get(teamId);
    if (cached?.metadata.eidgw_team_id === teamId) cached.team = team;
    return team;
  }

  /** After a committed change of the client: this process forgets it at once, every other on the feed. */
  async changed(clientId: string): Promise<void> {
    this.cache.delete(clientId);
    await this.changes.publish(clientId);
  }
}
