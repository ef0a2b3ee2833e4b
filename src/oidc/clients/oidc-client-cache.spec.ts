import { jest } from '@jest/globals';
import { TestClock } from '../../../test/support/test-clock.js';
import { ApiKeyChanges } from '../../api-keys/api-key-changes.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import type { Team } from '../../teams/team.entity.js';
import type { TeamsService } from '../../teams/teams.service.js';
import { CLIENT_CACHE_TTL_MS, OidcClientCache } from './oidc-client-cache.js';
import type { OidcClient } from './oidc-client.js';
import type { OidcClientStore } from './oidc-client.store.js';

class Feed extends ApiKeyChanges {
  live = true;
  protected async send(id: string): Promise<void> {
    this.changed(id);
  }
  listen(): void {}
}

const TEAM_ID = '00000000-0000-4000-8000-000000000001';
const OTHER_TEAM_ID = '00000000-0000-4000-8000-000000000002';
const CLIENT_ID = 'eidc_test_one';

function setup() {
  const clock = new TestClock();
  clock.freeze();
  const feed = new Feed();
  const client = {
    id: 'c1',
    teamId: TEAM_ID,
    clientId: CLIENT_ID,
    secretEnc: null,
    redirectUris: [],
    postLogoutRedirectUris: [],
  } as unknown as OidcClient;
  const store = { findByClientId: jest.fn(async (clientId: string) => (clientId === CLIENT_ID ? client : undefined)) };
  let plan = 'pro';
  const teams = { get: jest.fn(async (id: string) => ({ id, plan }) as unknown as Team) };
  const cache = new OidcClientCache(
    store as unknown as OidcClientStore,
    teams as unknown as TeamsService,
    new DataCipher(Buffer.alloc(32)),
    clock,
    feed,
  );
  return { cache, clock, feed, store, teams, changePlan: (to: string) => (plan = to) };
}

describe(OidcClientCache.name, () => {
  it('should read the team once while the client is cached, and again once the entry is 5 s old', async () => {
    const { cache, clock, teams, changePlan } = setup();
    await cache.metadataOf(CLIENT_ID);
    expect((await cache.teamOf(CLIENT_ID, TEAM_ID)).plan).toBe('pro');
    changePlan('free');
    expect((await cache.teamOf(CLIENT_ID, TEAM_ID)).plan).toBe('pro');
    expect(teams.get).toHaveBeenCalledTimes(1);

    clock.advance(CLIENT_CACHE_TTL_MS);
    await cache.metadataOf(CLIENT_ID);
    expect((await cache.teamOf(CLIENT_ID, TEAM_ID)).plan).toBe('free');
    expect(teams.get).toHaveBeenCalledTimes(2);
  });

  it('should read the team every time when the client is not cached (the feed not heard)', async () => {
    const { cache, feed, teams } = setup();
    feed.live = false;
    await cache.metadataOf(CLIENT_ID);
    await cache.teamOf(CLIENT_ID, TEAM_ID);
    await cache.teamOf(CLIENT_ID, TEAM_ID);
    expect(teams.get).toHaveBeenCalledTimes(2);
  });

  it('should read a team the cached client does not belong to, and not keep it', async () => {
    const { cache, teams } = setup();
    await cache.metadataOf(CLIENT_ID);
    expect((await cache.teamOf(CLIENT_ID, OTHER_TEAM_ID)).id).toBe(OTHER_TEAM_ID);
    expect((await cache.teamOf(CLIENT_ID, TEAM_ID)).id).toBe(TEAM_ID);
    expect((await cache.teamOf(CLIENT_ID, TEAM_ID)).id).toBe(TEAM_ID);
    expect(teams.get).toHaveBeenCalledTimes(2);
  });

  it('should forget the team with the client when the client changes', async () => {
    const { cache, teams } = setup();
    await cache.metadataOf(CLIENT_ID);
    await cache.teamOf(CLIENT_ID, TEAM_ID);
    await cache.changed(CLIENT_ID);
    await cache.metadataOf(CLIENT_ID);
    await cache.teamOf(CLIENT_ID, TEAM_ID);
    expect(teams.get).toHaveBeenCalledTimes(2);
  });
});
